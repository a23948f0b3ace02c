import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { DataVersionService } from '../../src/cache/data-version.service.js';
import { canReadItem, canWriteItem } from '../../src/common/auth/permissions.js';
import { ApiError } from '../../src/common/errors/api-error.js';
import { ErrorCode, extensionErrorCode } from '../../src/common/errors/error-codes.js';
import type { RequestContext } from '../../src/common/http/request-context.js';
import { dateToWall } from '../../src/common/sql/columns.js';
import { EventEntity } from '../../src/events/event.entity.js';
import type { CreateEventNoteDto } from './dto/create-event-note.dto.js';
import { EventNoteEntity } from './event-note.entity.js';
import { toEventNotePayload } from './event-note.mapper.js';

/** The module's own error code; its message is in `i18n/<lang>/errors.json`. */
export const NoteNotFound = extensionErrorCode('rest-note-not-found');

/**
 * Notes follow the core's capability table: whoever may read an event reads its notes, whoever may
 * edit it writes and deletes them. Every write bumps the shared data version, so cached anonymous
 * reads (core response cache) never show a note list older than the last write.
 */
@Injectable()
export class EventNotesService {
  constructor(
    @InjectRepository(EventNoteEntity) private readonly notes: Repository<EventNoteEntity>,
    @InjectRepository(EventEntity) private readonly events: Repository<EventEntity>,
    private readonly version: DataVersionService,
  ) {}

  async list(eventId: number, ctx: RequestContext): Promise<Record<string, unknown>> {
    const event = await this.requireEvent(eventId);
    if (!canReadItem(ctx.user, event)) throw ApiError.forbidden(ctx.user !== null);
    const notes = await this.notes.find({ where: { eventId }, order: { id: 'ASC' } });
    return { notes: notes.map(toEventNotePayload) };
  }

  async findOne(eventId: number, noteId: number, ctx: RequestContext): Promise<Record<string, unknown>> {
    const event = await this.requireEvent(eventId);
    ctx.subject = event; // the `Allow` header of the note follows the event's permissions
    if (!canReadItem(ctx.user, event)) throw ApiError.forbidden(ctx.user !== null);
    return toEventNotePayload(await this.requireNote(eventId, noteId));
  }

  async create(eventId: number, input: CreateEventNoteDto, ctx: RequestContext): Promise<Record<string, unknown>> {
    const event = await this.requireEvent(eventId);
    if (!ctx.user || !canWriteItem(ctx.user, event)) throw ApiError.forbidden(ctx.user !== null);
    const note = await this.notes.save(
      this.notes.create({ eventId, authorId: ctx.user.id, body: input.body, createdUtc: dateToWall(new Date()) }),
    );
    await this.version.bump();
    return toEventNotePayload(note);
  }

  /** Deletes the note for good and returns it as it was. */
  async remove(eventId: number, noteId: number, ctx: RequestContext): Promise<Record<string, unknown>> {
    const event = await this.requireEvent(eventId);
    ctx.subject = event;
    if (!canWriteItem(ctx.user, event)) throw ApiError.forbidden(ctx.user !== null);
    const note = await this.requireNote(eventId, noteId);
    await this.notes.delete({ id: note.id });
    await this.version.bump();
    return toEventNotePayload(note);
  }

  private async requireEvent(id: number): Promise<EventEntity> {
    const event = await this.events.findOneBy({ id });
    if (!event) throw new ApiError(404, ErrorCode.EventNotFound, { id });
    return event;
  }

  private async requireNote(eventId: number, id: number): Promise<EventNoteEntity> {
    const note = await this.notes.findOneBy({ id, eventId });
    if (!note) throw new ApiError(404, NoteNotFound, { id });
    return note;
  }
}
