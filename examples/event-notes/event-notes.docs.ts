import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { RESPONSE_TEXT } from '../../src/common/openapi/route-doc.js';

/**
 * The OpenAPI description of the module's routes, written with @nestjs/swagger's own decorators.
 * The core puts these paths after the contract's in `/doc` and the namespace index and translates
 * their prose per edition from `i18n/<lang>/openapi.json`; answer texts and `ID of the event.` are
 * the core's own, so they are translated already.
 */
const NOTE = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'ID of the note.' },
    event_id: { type: 'integer', description: 'ID of the event the note belongs to.' },
    author: { type: 'string', description: 'ID of the author, as a string.' },
    body: { type: 'string', description: 'Text of the note.' },
    date_utc: { type: 'string', description: 'When the note was written, in UTC.' },
  },
};

const NOTE_LIST = {
  type: 'object',
  properties: { notes: { type: 'array', description: 'The notes of the event, oldest first.', items: NOTE } },
};

type Operation = 'list' | 'create' | 'read' | 'delete';

const OPERATIONS: Record<Operation, { summary: string; description: string; answers: number[] }> = {
  list: {
    summary: 'List the notes of an event',
    description: 'Returns every note of the event, oldest first.',
    answers: [200, 400, 401, 403, 404],
  },
  create: {
    summary: 'Add a note to an event',
    description: 'Adds a note to the event and returns it.',
    answers: [201, 400, 401, 403, 404],
  },
  read: { summary: 'Read a note of an event', description: 'Returns the note with this ID.', answers: [200, 400, 401, 403, 404] },
  delete: {
    summary: 'Delete a note of an event',
    description: 'Deletes the note permanently and returns it as it was.',
    answers: [200, 400, 401, 403, 404],
  },
};

export function NoteRouteDoc(operation: Operation): MethodDecorator {
  const { summary, description, answers } = OPERATIONS[operation];
  const decorators = [
    ApiOperation({ summary, description }),
    ApiParam({ name: 'id', type: 'integer', required: true, description: 'ID of the event.' }),
  ];
  if (operation === 'read' || operation === 'delete') {
    decorators.push(ApiParam({ name: 'note_id', type: 'integer', required: true, description: 'ID of the note.' }));
  }
  for (const status of answers) {
    const schema = status >= 400 ? { $ref: '#/components/schemas/Error' } : operation === 'list' ? NOTE_LIST : NOTE;
    decorators.push(ApiResponse({ status, description: RESPONSE_TEXT[status], schema }));
  }
  return applyDecorators(...decorators);
}
