// Yardstick: the framework floor. A bare Nest app on @nestjs/platform-express, of the versions the
// service uses (from node_modules), with Nest's defaults (its body parsers, Express's settings) and
// one controller whose handlers return the service's own answers from memory (bench/answers.mjs):
// the same status, headers and body. Express answers `304` itself when `If-None-Match` names the
// answer's entity tag. Plain JavaScript: the decorators are applied as functions.
// What it measures is what any Nest + Express app pays per request before it does any work.
//
//   BYTES_FILE=/tmp/answers.json PORT=3930 node --max-old-space-size=192 bench/framework-floor.mjs
import 'reflect-metadata';
import { Controller, Delete, Get, HttpCode, Module, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { API_PREFIX, loadAnswers } from './answers.mjs';

const answers = loadAnswers();

/** Sets the answer's status and headers on the response and gives its body for Nest to send. */
function reply(response, route) {
  const answer = answers.get(route);
  response.set(answer.headers);
  return answer.body.toString('utf8');
}

class AnswersController {
  ready() {
    return { status: 'ok' };
  }
  list(response) {
    return reply(response, 'list');
  }
  single(response) {
    return reply(response, 'single');
  }
  create(response) {
    return reply(response, 'create');
  }
  update(response) {
    return reply(response, 'update');
  }
  trash(response) {
    return reply(response, 'trash');
  }
}

/** `@Method(path) @HttpCode(status) name(@Res({ passthrough: true }) response)`, without decorator syntax. */
function route(name, method, path, answered) {
  const prototype = AnswersController.prototype;
  const decorators = [method(path), ...(answered ? [HttpCode(answers.get(answered).status)] : [])];
  Reflect.decorate(decorators, prototype, name, Object.getOwnPropertyDescriptor(prototype, name));
  if (answered) Res({ passthrough: true })(prototype, name, 0);
}
route('ready', Get, 'health/ready');
route('list', Get, `${API_PREFIX}/events`, 'list');
route('single', Get, `${API_PREFIX}/events/:id`, 'single');
route('create', Post, `${API_PREFIX}/events`, 'create');
route('update', Post, `${API_PREFIX}/events/:id`, 'update');
route('trash', Delete, `${API_PREFIX}/events/:id`, 'trash');
Controller()(AnswersController);

class FloorModule {}
Module({ controllers: [AnswersController] })(FloorModule);

const app = await NestFactory.create(FloorModule, new ExpressAdapter(), { logger: false });
await app.listen(Number(process.env.PORT ?? 3930), '127.0.0.1');
