import 'reflect-metadata';
import { serve } from '../../src/lifecycle.js';
import { EventNotesModule } from './event-notes.module.js';

/** The service with the event-notes example: `npm run build && node dist/examples/event-notes/main.js`. */
await serve({ modules: [EventNotesModule] });
