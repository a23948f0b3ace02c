import { Injectable, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Editions } from '../editions/editions.js';
import { LANGUAGE_NAMES } from '../editions/language-names.js';
import { Translator } from '../i18n/translator.js';
import { ApiDocumentService } from './api-document.service.js';

const TITLE = 'Event Calendar API';
/** The summary of `info.description`; the contract itself is docs/API.md, shipped with the code. */
const DESCRIPTION =
  'Read and manage calendar events and the venues, organizers, categories and tags attached to them.\n\n' +
  'The complete contract is the API reference (docs/API.md) in the repository of this service.';

/**
 * Generates the OpenAPI document from the controllers (when first asked for) and serves the docs
 * page for people: Swagger UI at `/docs` for the default edition and at `/{lang}/docs` for every
 * other one, each showing its edition's document first, with a switch between the editions'
 * documents. It runs while the application initialises, after the lifecycle middleware is mounted,
 * so the docs page gets the same security headers as every other answer.
 */
@Injectable()
export class DocsPage implements OnModuleInit {
  private app: INestApplication | null = null;

  constructor(
    private readonly documents: ApiDocumentService,
    private readonly editions: Editions,
    private readonly translator: Translator,
  ) {}

  /** Called by `createApp` before `init()`: the document is built from this application. */
  publishFor(app: INestApplication): void {
    this.app = app;
  }

  onModuleInit(): void {
    if (!this.app) return;
    const app = this.app;
    this.documents.generateWith(() =>
      SwaggerModule.createDocument(
        app,
        new DocumentBuilder().setTitle(TITLE).setDescription(DESCRIPTION).setVersion('1.0.0').addBasicAuth().build(),
      ),
    );
    const document = () => this.documents.generatedDocument();
    for (const code of this.editions.codes) {
      // relative to the page, so that it works through whichever host, port or proxy path it is opened
      const urls = this.editions.codes.map((edition) => ({
        url: this.editions.documentFromDocsPage(edition, code),
        name: LANGUAGE_NAMES[edition] ?? edition,
      }));
      SwaggerModule.setup(this.editions.docsPage(code), app, document, {
        raw: false,
        explorer: true,
        customSiteTitle: this.translator.prose(code, TITLE),
        swaggerOptions: { urls, 'urls.primaryName': LANGUAGE_NAMES[code] ?? code },
      });
    }
  }
}
