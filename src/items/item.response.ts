import { ApiProperty } from '@nestjs/swagger';
import type { ItemStatus } from '../common/auth/item-status.js';

/** Documentation of the fields events, venues and organizers share (spec §8.2–§8.4). */
export const ITEM_HEAD_PROPERTIES = {
  id: { type: 'integer', description: 'Item ID.' },
  author: { type: 'string', description: 'ID of the author, as a string.' },
  status: { type: 'string', description: 'Publication status.' },
  date: { type: 'string', description: 'Publication date in the site time zone.' },
  date_utc: { type: 'string', description: 'Publication date in UTC.' },
  modified: { type: 'string', description: 'Last modification in the site time zone.' },
  modified_utc: { type: 'string', description: 'Last modification in UTC.' },
  url: { type: 'string', format: 'uri', description: 'Public page of the item.' },
} as const;

/** The first keys of venues and organizers (spec §8.3, §8.4); events have the same after their ids. */
export class ItemHeadResponse {
  @ApiProperty(ITEM_HEAD_PROPERTIES.id) id: number;
  @ApiProperty(ITEM_HEAD_PROPERTIES.author) author: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.status) status: ItemStatus;
  @ApiProperty(ITEM_HEAD_PROPERTIES.date) date: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.date_utc) date_utc: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.modified) modified: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.modified_utc) modified_utc: string;
  @ApiProperty(ITEM_HEAD_PROPERTIES.url) url: string;
}

/** `date`, `date_utc`, `modified`, `modified_utc`. */
export type ItemDates = Pick<ItemHeadResponse, 'date' | 'date_utc' | 'modified' | 'modified_utc'>;
