/** The objects of `tec/v1` (WordPress core's post shape plus the reference's own fields). */

export interface TecRendered {
  rendered: string;
}

export interface TecProtectedText extends TecRendered {
  /** true: the item has a password the request gave; false: no password; null: hidden behind one. */
  protected: boolean | null;
}

export interface TecItemBase {
  id: number;
  date: string;
  date_gmt: string;
  guid: TecRendered;
  modified: string;
  modified_gmt: string;
  slug: string;
  status: string;
  type: string;
  link: string;
  title: TecRendered;
  content: TecProtectedText;
  excerpt: TecProtectedText;
  author: number;
  featured_media: number;
  template: string;
}

export interface TecVenue extends TecItemBase {
  address: string;
  country: string;
  city: string;
  state_province: string;
  state: string;
  province: string;
  zip: string;
  phone: string;
  directions_link: string;
  website: string;
}

export interface TecOrganizer extends TecItemBase {
  phone: string;
  website: string;
  email: string;
}

/** A PHP `DateTime` as `json_encode` writes it. */
export interface TecDateTime {
  date: string;
  timezone_type: number;
  timezone: string;
}

export interface TecEvent extends TecItemBase {
  tags: number[];
  tribe_events_cat: number[];
  class_list: string[];
  start_date: string;
  start_date_utc: string;
  end_date: string;
  end_date_utc: string;
  dates: Record<'start' | 'start_utc' | 'start_site' | 'start_display' | 'end' | 'end_utc' | 'end_site' | 'end_display', TecDateTime>;
  timezone: string;
  /** Seconds, written as a string. */
  duration: string;
  multiday: number | false | null;
  is_past: boolean | null;
  is_now: boolean | null;
  all_day: boolean | null;
  starts_this_week: boolean | null;
  ends_this_week: boolean | null;
  this_week_duration: number | null;
  happens_this_week: boolean | null;
  displays_on: string[];
  featured: boolean | null;
  sticky: boolean | null;
  cost: string;
  organizer_names: string[];
  organizers: TecOrganizer[];
  venues: TecVenue[];
  schedule_details: string;
  short_schedule_details: string;
}
