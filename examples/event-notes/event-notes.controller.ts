import { Body, Controller, Delete, Get, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiRoutes } from '../../src/common/http/api-routes.js';
import { created } from '../../src/common/http/list-response.js';
import { Ctx, PathId } from '../../src/common/http/path-params.js';
import type { RequestContext } from '../../src/common/http/request-context.js';
import { CreateEventNoteDto } from './dto/create-event-note.dto.js';
import { NoteRouteDoc } from './event-notes.docs.js';
import { EventNotesService } from './event-notes.service.js';

/**
 * `{api}/events/{id}/notes[/{note_id}]`. `@ApiRoutes()` puts the routes in the core's route table:
 * they get editions, Basic auth, `OPTIONS`, `Allow`, query-style addressing, the namespace index
 * and `/doc` like the contract's own routes.
 */
@ApiTags('notes')
@ApiRoutes()
@Controller('events/:id/notes')
export class EventNotesController {
  constructor(private readonly notes: EventNotesService) {}

  @NoteRouteDoc('list')
  @Get()
  list(@PathId() eventId: number, @Ctx() ctx: RequestContext) {
    return this.notes.list(eventId, ctx);
  }

  @NoteRouteDoc('create')
  @Post()
  async create(
    @PathId() eventId: number,
    @Body() input: CreateEventNoteDto,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    const note = await this.notes.create(eventId, input, ctx);
    return created(res, `${ctx.api}/events/${eventId}/notes/${String(note.id)}`, note);
  }

  @NoteRouteDoc('read')
  @Get(':note_id')
  findOne(@PathId() eventId: number, @PathId('note_id') noteId: number, @Ctx() ctx: RequestContext) {
    return this.notes.findOne(eventId, noteId, ctx);
  }

  @NoteRouteDoc('delete')
  @Delete(':note_id')
  remove(@PathId() eventId: number, @PathId('note_id') noteId: number, @Ctx() ctx: RequestContext) {
    return this.notes.remove(eventId, noteId, ctx);
  }
}
