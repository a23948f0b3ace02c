/** Venues and organizers of the source → the values stored here. Pure. */
import { effectiveStateProvince } from '../venues/venue.mapper.js';
import { field, itemFields, type OrganizerRecord, type VenueRecord } from './source-records.js';
import { asObject, flag, UnusableRecord, type ConvertSettings } from './source-values.js';

export function convertVenue(value: unknown, settings: ConvertSettings): VenueRecord {
  const raw = asObject(value);
  if (!raw) throw new UnusableRecord('a venue that is not an object');
  const base = itemFields(raw, 'venue', settings, raw.show_map === null);
  const notes = base.notes;
  const venue: VenueRecord = {
    kind: 'venue',
    ...base,
    name: field(raw, 'venue', settings, notes, 1000),
    address: field(raw, 'address', settings, notes),
    city: field(raw, 'city', settings, notes),
    country: field(raw, 'country', settings, notes),
    province: field(raw, 'province', settings, notes),
    state: field(raw, 'state', settings, notes),
    zip: field(raw, 'zip', settings, notes),
    phone: field(raw, 'phone', settings, notes),
    stateprovince: '',
    website: field(raw, 'website', settings, notes),
    showMap: flag(raw.show_map),
    showMapLink: flag(raw.show_map_link),
    geoLat: null,
    geoLng: null,
  };
  // stored only where it differs from what this service derives from state, province and country
  const shown = field(raw, 'stateprovince', settings, notes);
  if (shown !== effectiveStateProvince(venue)) venue.stateprovince = shown;
  const lat = Number(raw.geo_lat);
  const lng = Number(raw.geo_lng);
  if (raw.geo_lat !== undefined && raw.geo_lng !== undefined && Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0)) {
    venue.geoLat = lat;
    venue.geoLng = lng;
  }
  return venue;
}

export function convertOrganizer(value: unknown, settings: ConvertSettings): OrganizerRecord {
  const raw = asObject(value);
  if (!raw) throw new UnusableRecord('an organizer that is not an object');
  // the reference withholds a protected organizer's name (an empty list in its place)
  const base = itemFields(raw, 'organizer', settings, Array.isArray(raw.organizer));
  const notes = base.notes;
  return {
    kind: 'organizer',
    ...base,
    name: field(raw, 'organizer', settings, notes, 1000),
    phone: field(raw, 'phone', settings, notes),
    website: field(raw, 'website', settings, notes),
    email: field(raw, 'email', settings, notes),
  };
}
