import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponse } from '../common/errors/error.response.js';
import { listPageResponse } from '../common/paging/list-page.response.js';
import { RESPONSE_TEXT } from '../common/openapi/route-doc.js';
import {
  SourceEventResponse,
  SourceResponse,
  SourceRunCountsResponse,
  SourceRunProblemResponse,
  SourceRunResponse,
} from './source.response.js';

const SourceList = listPageResponse('sources', SourceResponse);
const RunList = listPageResponse('runs', SourceRunResponse);
const EventList = listPageResponse('events', SourceEventResponse, 'SourceEventsPage');

type Operation = 'list' | 'create' | 'read' | 'update' | 'delete' | 'run' | 'runs' | 'events';

const NOT_FOUND = 'No calendar source has this ID.';

const SCHEMAS = { one: SourceResponse, list: SourceList, run: SourceRunResponse, runs: RunList, events: EventList };

const OPERATIONS: Record<
  Operation,
  { summary: string; description: string; answers: Array<[number, string?]>; body: keyof typeof SCHEMAS }
> = {
  list: {
    summary: 'List calendar sources',
    description: 'Returns the iCalendar feeds this calendar subscribes to, oldest first, each with its latest run. Administrators only.',
    answers: [[200], [400], [401], [403]],
    body: 'list',
  },
  create: {
    summary: 'Subscribe to an iCalendar feed',
    description:
      'Adds a calendar source: its events are imported on the first run, at once, and kept in sync at every refresh. Private, loopback and link-local addresses are refused unless the operator allows them. Administrators only.',
    answers: [[201], [400], [401], [403]],
    body: 'one',
  },
  read: {
    summary: 'Read a calendar source',
    description: 'Returns the source with its latest run. Administrators only.',
    answers: [[200], [401], [403], [404, NOT_FOUND]],
    body: 'one',
  },
  update: {
    summary: 'Update a calendar source',
    description: 'Changes the fields sent; the others keep their values. Administrators only.',
    answers: [[200], [400], [401], [403], [404, NOT_FOUND]],
    body: 'one',
  },
  delete: {
    summary: 'Delete a calendar source',
    description: 'Deletes the source and its runs and returns it as it was; the events it imported stay. Administrators only.',
    answers: [[200], [401], [403], [404, NOT_FOUND]],
    body: 'one',
  },
  run: {
    summary: 'Run a calendar source now',
    description:
      'Starts a run of the source at once (also while it is paused) and returns it; follow it in the runs of the source. Administrators only.',
    answers: [[202, 'The run was started.'], [401], [403], [404, NOT_FOUND], [409, 'The source is being run already.']],
    body: 'run',
  },
  runs: {
    summary: 'List the runs of a calendar source',
    description: 'Returns the runs of the source, newest first, each with its counts and problems. Administrators only.',
    answers: [[200], [400], [401], [403], [404, NOT_FOUND]],
    body: 'runs',
  },
  events: {
    summary: 'List the events of a calendar source',
    description:
      'Returns the events the source imported, by event ID, each with the UID (and the RECURRENCE-ID, for an occurrence the feed changes on its own) of the VEVENT it came from. A series is listed once. Administrators only.',
    answers: [[200], [400], [401], [403], [404, NOT_FOUND]],
    body: 'events',
  },
};

/** The OpenAPI description of a route of `/sources`. */
export function SourceRouteDoc(operation: Operation, withId = true): MethodDecorator {
  const { summary, description, answers, body } = OPERATIONS[operation];
  const decorators = [
    ApiExtraModels(
      SourceResponse,
      SourceRunResponse,
      SourceRunCountsResponse,
      SourceRunProblemResponse,
      SourceEventResponse,
      SourceList,
      RunList,
      EventList,
    ),
    ApiOperation({ summary, description }),
    ...(withId ? [ApiParam({ name: 'id', type: 'integer', required: true, description: 'ID of the calendar source.' })] : []),
  ];
  for (const [status, text] of answers) {
    const schema = status >= 400 ? { $ref: getSchemaPath(ErrorResponse) } : { $ref: getSchemaPath(SCHEMAS[body]) };
    decorators.push(ApiResponse({ status, description: text ?? RESPONSE_TEXT[status], schema }));
  }
  return applyDecorators(...decorators);
}
