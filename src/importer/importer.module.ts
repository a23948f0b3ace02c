import { Module } from '@nestjs/common';
import { ImportJobsService } from './import-jobs.service.js';
import { ImportsController } from './imports.controller.js';
import { TecImporter } from './tec-importer.js';

/** `import:tec`: the importer the command-line tool uses, and the import jobs of `POST /imports` for administrators. */
@Module({
  controllers: [ImportsController],
  providers: [TecImporter, ImportJobsService],
  exports: [TecImporter],
})
export class ImporterModule {}
