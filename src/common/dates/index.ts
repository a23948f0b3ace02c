export { defaultListWindow, parseStrictDates, wholeDayEnd, wholeDayStart, type ListWindow } from './list-window.js';
export { parseDateInput, type ParsedDate } from './parse-date.js';
export { WALL_FORMAT } from './wall-clock.js';
export type { DateDetailsResponse } from './date-details.response.js';
export { dateDetails, isoWithOffset, normalizeWallAfterGap, nowUtcWall, utcToWall, wallToUtc } from './wall-time.js';
export { normalizeTimezone, offsetHours, timezoneAbbr, toLuxonZone } from './zones.js';
