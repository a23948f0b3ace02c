/**
 * Every error code the API answers with (spec §12.2), in one place. Each has a message in every
 * edition's `errors.json`; codes are never translated.
 */
export const ErrorCode = {
  NoRoute: 'rest_no_route',
  InvalidNamespace: 'rest_invalid_namespace',
  InvalidJson: 'rest_invalid_json',
  PayloadTooLarge: 'rest_payload_too_large',
  UriTooLong: 'rest_uri_too_long',
  HeadersTooLarge: 'rest_headers_too_large',
  BadRequest: 'rest_bad_request',
  MissingParam: 'rest_missing_callback_param',
  InvalidParam: 'rest_invalid_param',
  Forbidden: 'rest_forbidden',
  TooManyRequests: 'rest_too_many_requests',
  PreconditionFailed: 'rest_precondition_failed',
  InvalidUsername: 'invalid_username',
  IncorrectPassword: 'incorrect_password',
  InvalidFeedToken: 'rest_invalid_feed_token',
  DatabaseUnavailable: 'db_unavailable',
  CalendarBusy: 'rest_calendar_busy',
  Internal: 'internal_server_error',
  EventNotFound: 'rest-event-not-found',
  InvalidEventId: 'rest-invalid-event-id',
  EventNoLongerAvailable: 'event-no-longer-available',
  EventPasswordProtected: 'event-password-protected',
  TermExists: 'term_exists',
  DuplicateTermSlug: 'duplicate_term_slug',
  TaxonomyNotHierarchical: 'rest_taxonomy_not_hierarchical',
  SyncCursorExpired: 'rest_sync_cursor_expired',
  WebhookNotFound: 'rest_webhook_not_found',
  WebhookDeliveryNotFound: 'rest_webhook_delivery_not_found',
  ImportSourceUnusable: 'rest_import_source_unusable',
  ImportRunning: 'rest_import_running',
  SeriesNotFound: 'rest-series-not-found',
  SourceNotFound: 'rest_source_not_found',
  SourceRunning: 'rest_source_running',
  /** `tec/v1`: the acknowledgement header `X-TEC-EEA` is missing (or, variant `_wrong`, another text). */
  TecAcknowledgementMissing: 'missing_experimental_endpoint_acknowledgement',
  /** `tec/v1`: a page past the end of any of its lists (the reference names organizers for all three). */
  TecPageNotFound: 'tec_rest_organizers_page_not_found',
  /** `tec/v1`: no record of the route's kind has the id (WordPress core's code). */
  PostInvalidId: 'rest_post_invalid_id',
  /** `tec/v1`: `DELETE …?force=true` of an event of a series, which is not deleted for good. */
  TecForceDeleteUnsupported: 'tec_rest_force_delete_unsupported',
  /** `tec/v1/tickets`: this service has no tickets. */
  TecTicketsUnsupported: 'tec_rest_tickets_not_supported',
} as const;

/** Codes of `data.details` entries (spec §7.7), never an answer's own code. */
export const DetailsCode = {
  InvalidType: 'rest_invalid_type',
} as const;

/** The kinds of item whose errors follow one pattern (`venue-is-in-trash`, `could-not-create-event`, ...). */
export type ItemErrorKind = 'event' | 'venue' | 'organizer';

/** Codes that exist once per item kind. */
export const ItemErrorCode = {
  notAccessible: (kind: ItemErrorKind) => `${kind}-not-accessible` as const,
  archivePageNotFound: (kind: ItemErrorKind) => `${kind}-archive-page-not-found` as const,
  inTrash: (kind: ItemErrorKind) => `${kind}-is-in-trash` as const,
  couldNot: (operation: 'create' | 'update' | 'delete', kind: ItemErrorKind) => `could-not-${operation}-${kind}` as const,
};

export type ErrorCode =
  | (typeof ErrorCode)[keyof typeof ErrorCode]
  | ReturnType<(typeof ItemErrorCode)[Exclude<keyof typeof ItemErrorCode, 'couldNot'>]>
  | ReturnType<typeof ItemErrorCode.couldNot>;

declare const EXTENSION_CODE: unique symbol;

/**
 * A code declared by an extension module (docs/EXTENDING.md) with {@link extensionErrorCode}; its
 * messages come with the module's own catalogues. The brand keeps core code on the constants above.
 */
export type ExtensionErrorCode = string & { readonly [EXTENSION_CODE]: true };

export function extensionErrorCode<const T extends string>(code: T): T & ExtensionErrorCode {
  return code as T & ExtensionErrorCode;
}

/** Every code, for the test that checks each edition has a message for it. */
export const ALL_ERROR_CODES: readonly ErrorCode[] = [
  ...Object.values(ErrorCode),
  ...(['event', 'venue', 'organizer'] as const).flatMap((kind) => [
    ItemErrorCode.notAccessible(kind),
    ItemErrorCode.archivePageNotFound(kind),
    ItemErrorCode.inTrash(kind),
    ...(['create', 'update', 'delete'] as const).map((operation) => ItemErrorCode.couldNot(operation, kind)),
  ]),
];

/** Messages a code has besides its own, keyed `<code>_<variant>` in every `errors.json`. */
export const MESSAGE_VARIANTS = {
  /** `rest-event-not-found` for an update by slug (spec §3.2). */
  eventNotFoundBySlug: `${ErrorCode.EventNotFound}_slug`,
  /** `missing_experimental_endpoint_acknowledgement` for a header with another text. */
  tecAcknowledgementWrong: `${ErrorCode.TecAcknowledgementMissing}_wrong`,
} as const;
