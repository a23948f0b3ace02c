import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OwnsTables } from '../../src/common/extensions/extension-tables.js';
import { EventEntity } from '../../src/events/event.entity.js';
import { OwnsCatalogues } from '../../src/i18n/extension-catalogues.js';
import { EventNoteEntity } from './event-note.entity.js';
import { EventNotesController } from './event-notes.controller.js';
import { EventNotesService } from './event-notes.service.js';
import { EventNotes1795400000000 } from './migrations/1795400000000-event-notes.js';

/**
 * Notes on events, as an example of extending the service without touching the core (see
 * docs/EXTENDING.md): `createApp(config, { modules: [EventNotesModule] })`.
 */
@OwnsTables({ entities: [EventNoteEntity], migrations: [EventNotes1795400000000] })
@OwnsCatalogues(join(dirname(fileURLToPath(import.meta.url)), 'i18n'))
@Module({
  imports: [TypeOrmModule.forFeature([EventNoteEntity, EventEntity])],
  controllers: [EventNotesController],
  providers: [EventNotesService],
})
export class EventNotesModule {}
