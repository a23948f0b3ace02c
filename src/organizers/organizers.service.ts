import { Injectable } from '@nestjs/common';
import { ITEM_FIELDS_AFTER_NAME } from '../items/dto/item-fields.js';
import { LinkedItemDeps } from '../items/linked-item-deps.js';
import { LinkedItemsService } from '../items/linked-items.service.js';
import { stripTags } from '../common/text/html.js';
import type { UpdateOrganizerDto } from './dto/update-organizer.dto.js';
import { OrganizerEntity } from './organizer.entity.js';
import type { OrganizerResponse } from './organizer.response.js';
import { toOrganizerPayload } from './organizer.mapper.js';

const CONTACT_FIELDS = ['phone', 'website', 'email'] as const;

@Injectable()
export class OrganizersService extends LinkedItemsService<OrganizerEntity, UpdateOrganizerDto, OrganizerResponse> {
  constructor(deps: LinkedItemDeps) {
    super(
      {
        kind: 'organizer',
        resource: 'organizers',
        table: 'organizers',
        entity: OrganizerEntity,
        nameField: 'organizer',
        writeOrder: ['organizer', ...ITEM_FIELDS_AFTER_NAME, ...CONTACT_FIELDS, 'image', 'post_password'],
        dedupFields: [
          ['organizer', 'name'],
          ['description', 'description'],
          ['excerpt', 'excerpt'],
          ['phone', 'phone'],
          ['email', 'email'],
          ['website', 'website'],
        ],
        searchColumns: ['i.name', 'i.description', 'i.excerpt', 'i.phone', 'i.email', 'i.website'],
        applyFields: (organizer, input, _problems, isCreate) => {
          if (isCreate) for (const field of CONTACT_FIELDS) organizer[field] = '';
          for (const field of CONTACT_FIELDS)
            if (input[field] !== undefined) organizer[field] = field === 'email' ? input[field] : stripTags(input[field]);
        },
        toPayload: toOrganizerPayload,
      },
      deps,
    );
  }
}
