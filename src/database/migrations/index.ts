import { InitialSchema1763700000000 } from './1763700000000-initial-schema.js';
import { DataVersion1763800000000 } from './1763800000000-data-version.js';
import { TermCounts1763900000000 } from './1763900000000-term-counts.js';
import { LoginFailures1764000000000 } from './1764000000000-login-failures.js';
import { TermModified1764100000000 } from './1764100000000-term-modified.js';
import { FeedTokens1764200000000 } from './1764200000000-feed-tokens.js';
import { ChangeLog1764250000000 } from './1764250000000-change-log.js';
import { Webhooks1764400000000 } from './1764400000000-webhooks.js';
import { ImportState1764450000000 } from './1764450000000-import-state.js';
import { EventSeries1764500000000 } from './1764500000000-event-series.js';
import { SeriesTrashed1764550000000 } from './1764550000000-series-trashed.js';
import { ListingSeries1764600000000 } from './1764600000000-listing-series.js';
import { ListingFilters1764700000000 } from './1764700000000-listing-filters.js';
import { VenueUpcoming1764750000000 } from './1764750000000-venue-upcoming.js';
import { CredentialsVersion1764800000000 } from './1764800000000-credentials-version.js';
import { EmbeddedVersion1764900000000 } from './1764900000000-embedded-version.js';
import { LinksInEventRow1765000000000 } from './1765000000000-links-in-event-row.js';
import { DropTriggers1765100000000 } from './1765100000000-drop-triggers.js';
import { ContentTranslations1765300000000 } from './1765300000000-content-translations.js';
import { CalendarSources1765250000000 } from './1765250000000-calendar-sources.js';

/** Every migration, oldest first; applied at start-up and by `npm run migration:run`. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  DataVersion1763800000000,
  TermCounts1763900000000,
  LoginFailures1764000000000,
  TermModified1764100000000,
  FeedTokens1764200000000,
  ChangeLog1764250000000,
  Webhooks1764400000000,
  ImportState1764450000000,
  EventSeries1764500000000,
  SeriesTrashed1764550000000,
  ListingSeries1764600000000,
  ListingFilters1764700000000,
  VenueUpcoming1764750000000,
  CredentialsVersion1764800000000,
  EmbeddedVersion1764900000000,
  LinksInEventRow1765000000000,
  DropTriggers1765100000000,
  CalendarSources1765250000000,
  ContentTranslations1765300000000,
];
