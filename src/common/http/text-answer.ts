/**
 * An answer that is not JSON (e.g. an iCalendar file): a handler returns it, and the adapter writes
 * the text with its content type instead of serializing it.
 */
export class TextAnswer {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}
