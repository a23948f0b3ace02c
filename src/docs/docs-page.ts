import { Injectable, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Editions } from '../editions/editions.js';
import { LANGUAGE_NAMES } from '../editions/language-names.js';
import { ApiDocumentService } from './api-document.service.js';

/**
 * Generates the OpenAPI document from the controllers and serves the docs page for people
 * (Swagger UI at `/docs`, with a switch between the editions' documents). It runs while the
 * application initialises, after the lifecycle middleware is mounted, so the docs page gets the
 * same security headers as every other answer.
 */
@Injectable()
export class DocsPage implements OnModuleInit {
  private app: INestApplication | null = null;

  constructor(
    private readonly documents: ApiDocumentService,
    private readonly editions: Editions,
  ) {}

  /** Called by `createApp` before `init()`: the document is built from this application. */
  publishFor(app: INestApplication): void {
    this.app = app;
  }

  onModuleInit(): void {
    if (!this.app) return;
    const document = SwaggerModule.createDocument(
      this.app,
      new DocumentBuilder()
        .setTitle('Event Calendar API')
        .setDescription('Read and manage calendar events and the venues, organizers, categories and tags attached to them.')
        .setVersion('1.0.0')
        .addBasicAuth()
        .build(),
    );
    this.documents.setDocument(document);
    SwaggerModule.setup('docs', this.app, document, {
      raw: false,
      explorer: true,
      customSiteTitle: 'Event Calendar API',
      swaggerOptions: {
        urls: this.editions.codes.map((code) => ({ url: `${this.editions.api(code)}/doc`, name: LANGUAGE_NAMES[code] ?? code })),
        'urls.primaryName': LANGUAGE_NAMES[this.editions.defaultEdition] ?? this.editions.defaultEdition,
      },
    });
  }
}
