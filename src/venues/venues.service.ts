import { Injectable } from '@nestjs/common';
import { ITEM_FIELDS_AFTER_NAME } from '../items/dto/item-fields.js';
import { LinkedItemDeps } from '../items/linked-item-deps.js';
import { LinkedItemsService } from '../items/linked-items.service.js';
import { stripTags } from '../common/text/html.js';
import type { UpdateVenueDto } from './dto/update-venue.dto.js';
import { VenueEntity } from './venue.entity.js';
import type { VenueResponse } from './venue.response.js';
import { toVenuePayload } from './venue.mapper.js';

const ADDRESS_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'] as const;

@Injectable()
export class VenuesService extends LinkedItemsService<VenueEntity, UpdateVenueDto, VenueResponse> {
  constructor(deps: LinkedItemDeps) {
    super(
      {
        kind: 'venue',
        resource: 'venues',
        table: 'venues',
        entity: VenueEntity,
        nameField: 'venue',
        writeOrder: [
          'venue',
          ...ITEM_FIELDS_AFTER_NAME,
          'show_map',
          'show_map_link',
          ...ADDRESS_FIELDS,
          'image',
          'geo_lat',
          'geo_lng',
          'post_password',
        ],
        dedupFields: [
          ['venue', 'name'],
          ['description', 'description'],
          ['excerpt', 'excerpt'],
          ['address', 'address'],
          ['city', 'city'],
          ['country', 'country'],
          ['province', 'province'],
          ['state', 'state'],
          ['stateprovince', 'stateprovince'],
          ['zip', 'zip'],
          ['phone', 'phone'],
          ['website', 'website'],
        ],
        searchColumns: [
          'i.name',
          'i.description',
          'i.excerpt',
          'i.address',
          'i.city',
          'i.province',
          'i.state',
          "(CASE WHEN i.stateprovince <> '' THEN i.stateprovince WHEN i.country = '' OR LOWER(TRIM(i.country)) IN ('us', 'usa', 'united states', 'united states of america') THEN i.state ELSE i.province END)",
          'i.zip',
          'i.phone',
        ],
        applyFields: (venue, input, problems, isCreate) => {
          if (isCreate) {
            venue.showMap = true;
            venue.showMapLink = true;
            for (const field of ADDRESS_FIELDS) venue[field] = '';
            venue.geoLat = null;
            venue.geoLng = null;
          }
          if (input.show_map !== undefined) venue.showMap = input.show_map;
          if (input.show_map_link !== undefined) venue.showMapLink = input.show_map_link;
          for (const field of ADDRESS_FIELDS) if (input[field] !== undefined) venue[field] = stripTags(input[field]);
          if (input.geo_lat !== undefined) venue.geoLat = input.geo_lat;
          if (input.geo_lng !== undefined) venue.geoLng = input.geo_lng;
          if ((venue.geoLat === null) !== (venue.geoLng === null)) {
            const missing = venue.geoLat === null ? 'geo_lat' : 'geo_lng';
            problems.add(missing, 'coordinates_pair');
          }
        },
        toPayload: toVenuePayload,
      },
      deps,
    );
  }
}
