import { type MiddlewareConsumer, Module, type NestModule, PayloadTooLargeException, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import express, { type NextFunction, type Request, type Response } from 'express';
import { JournalCsvService } from './journal-csv.service.js';
import { JournalOperationEntity } from './journal-operation.entity.js';
import { JournalController } from './journal.controller.js';
import { JournalRepository } from './journal.repository.js';
import { JournalService } from './journal.service.js';

/** The `csv` rule: the import's body is the CSV itself, up to 64 MiB; the global parser only reads JSON (1 MiB). */
export const IMPORT_BODY_LIMIT = '64mb';
const csvText = express.text({ type: ['text/csv', 'text/plain'], limit: IMPORT_BODY_LIMIT });

function csvBodyParser(req: Request, res: Response, next: NextFunction): void {
  csvText(req, res, (err?: unknown) => {
    const status = (err as { status?: number } | undefined)?.status;
    // body-parser's own errors are not Nest exceptions; give the `errors` rule 413 instead of a 500.
    next(status === 413 ? new PayloadTooLargeException('request body too large') : err);
  });
}

@Module({
  imports: [TypeOrmModule.forFeature([JournalOperationEntity])],
  controllers: [JournalController],
  providers: [JournalRepository, JournalService, JournalCsvService],
})
export class JournalModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(csvBodyParser).forRoutes({ path: 'v1/journal/import', method: RequestMethod.POST });
  }
}
