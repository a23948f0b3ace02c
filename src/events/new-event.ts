import type { EventEntity } from './event.entity.js';

/** The columns of a new event that no input sets. */
export const NEW_EVENT = {
  cost: null,
  costSymbol: '',
  costPosition: '',
  website: null,
  showMap: false,
  showMapLink: false,
  hideFromListings: false,
  sticky: false,
  featured: false,
  venueId: null,
  parentId: null,
  customFields: null,
  preTrashStatus: null,
  seriesId: null,
  seriesOriginalStart: null,
  seriesException: false,
  seriesTrashed: false,
} satisfies Partial<EventEntity>;
