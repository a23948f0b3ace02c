import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ListsConfig } from '../config/app-config.js';
import { EventOrganizerEntity } from '../events/event-organizer.entity.js';
import { ImagesService } from '../images/images.service.js';
import { ItemsService } from '../items/items.service.js';
import { LinkedItemsService } from '../items/linked-items.service.js';
import { stripTags } from '../common/text/html.js';
import type { UpdateOrganizerDto } from './dto/update-organizer.dto.js';
import { OrganizerEntity } from './organizer.entity.js';
import { toOrganizerPayload } from './organizer.mapper.js';
import type { OrganizerResponse } from './organizer.response.js';

const CONTACT_FIELDS = ['phone', 'website', 'email'] as const;

@Injectable()
export class OrganizersService extends LinkedItemsService<OrganizerEntity, UpdateOrganizerDto, OrganizerResponse> {
  constructor(@InjectDataSource() dataSource: DataSource, items: ItemsService, images: ImagesService, config: ConfigService) {
    super(
      {
        kind: 'organizer',
        resource: 'organizers',
        table: 'organizers',
        entity: OrganizerEntity,
        nameField: 'organizer',
        writeOrder: [
          'organizer',
          'description',
          'excerpt',
          'slug',
          'status',
          'author',
          'date',
          'date_utc',
          ...CONTACT_FIELDS,
          'image',
          'post_password',
        ],
        dedupFields: [
          ['organizer', 'name'],
          ['description', 'description'],
          ['excerpt', 'excerpt'],
          ['phone', 'phone'],
          ['email', 'email'],
          ['website', 'website'],
        ],
        searchColumns: ['i.name', 'i.description', 'i.excerpt', 'i.phone', 'i.email', 'i.website'],
        linkedEventsExist: (condition) =>
          `EXISTS (SELECT 1 FROM event_organizers eo INNER JOIN events e ON e.id = eo.event_id WHERE eo.organizer_id = i.id AND ${condition})`,
        applyFields: (organizer, input, _problems, isCreate) => {
          if (isCreate) for (const field of CONTACT_FIELDS) organizer[field] = '';
          for (const field of CONTACT_FIELDS)
            if (input[field] !== undefined)
              organizer[field] = field === 'email' ? (input[field] as string) : stripTags(input[field] as string);
        },
        unlinkFromEvents: async (manager, id) => {
          await manager.delete(EventOrganizerEntity, { organizerId: id });
        },
        toPayload: toOrganizerPayload,
      },
      dataSource,
      items,
      images,
      config.getOrThrow<ListsConfig>('lists'),
    );
  }
}
