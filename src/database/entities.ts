import { ChangeEntity } from '../changes/change.entity.js';
import { ChangeSequenceEntity } from '../changes/change-sequence.entity.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { DataVersionEntity } from '../cache/data-version.entity.js';
import { EventOrganizerEntity } from '../events/event-organizer.entity.js';
import { EventEntity } from '../events/event.entity.js';
import { EventSeriesEntity } from '../events/series/event-series.entity.js';
import { ImageEntity } from '../images/image.entity.js';
import { ImportMappingEntity } from '../importer/import-mapping.entity.js';
import { ImportRunEntity } from '../importer/import-run.entity.js';
import { ImportSourceEntity } from '../importer/import-source.entity.js';
import { CalendarSourceEventEntity } from '../sources/calendar-source-event.entity.js';
import { CalendarSourceRunEntity } from '../sources/calendar-source-run.entity.js';
import { CalendarSourceEntity } from '../sources/calendar-source.entity.js';
import { LoginFailureEntity } from '../limits/login-failure.entity.js';
import { ItemIdEntity } from '../items/item-id.entity.js';
import { OrganizerEntity } from '../organizers/organizer.entity.js';
import { VenueEntity } from '../venues/venue.entity.js';
import { ContentTranslationEntity } from '../translations/content-translation.entity.js';
import { TagEntity } from '../tags/tag.entity.js';
import { TermIdEntity } from '../terms/term-id.entity.js';
import { AppPasswordEntity } from '../users/app-password.entity.js';
import { CredentialsVersionEntity } from '../users/credentials-version.js';
import { FeedTokenEntity } from '../users/feed-token.entity.js';
import { UserEntity } from '../users/user.entity.js';
import { WebhookAttemptEntity } from '../webhooks/webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity.js';
import { WebhookSubscriptionEntity } from '../webhooks/webhook-subscription.entity.js';

/** Every entity, for the CLI data source; the app registers the same set through forFeature. */
export const ENTITIES = [
  UserEntity,
  AppPasswordEntity,
  CredentialsVersionEntity,
  ItemIdEntity,
  TermIdEntity,
  ImageEntity,
  EventEntity,
  EventOrganizerEntity,
  EventSeriesEntity,
  VenueEntity,
  OrganizerEntity,
  CategoryEntity,
  TagEntity,
  ContentTranslationEntity,
  DataVersionEntity,
  LoginFailureEntity,
  ChangeEntity,
  ChangeSequenceEntity,
  FeedTokenEntity,
  WebhookSubscriptionEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  ImportSourceEntity,
  ImportRunEntity,
  ImportMappingEntity,
  CalendarSourceEntity,
  CalendarSourceRunEntity,
  CalendarSourceEventEntity,
];
