import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ApiIdParam } from '../common/openapi/api-field.decorator.js';
import { UuidParam } from '../common/validation/uuid-param.pipe.js';
import { CreateOperationDto } from './dto/create-operation.dto.js';
import { ImportResultDto } from './dto/import-result.dto.js';
import { JournalSummaryDto } from './dto/journal-summary.dto.js';
import { CAPITAL_NEEDED } from './journal-metrics.engine.js';
import { OperationDto, OperationPageDto } from './dto/operation.dto.js';
import {
  ListOperationsQueryDto,
  OperationFiltersDto,
  OperationOwnerQueryDto,
  SummaryQueryDto,
} from './dto/operation-query.dto.js';
import { UpdateOperationDto } from './dto/update-operation.dto.js';
import { CSV_HEADER } from './journal-csv.js';
import { JournalCsvService } from './journal-csv.service.js';
import { JournalService, OPERATION_NOT_FOUND, EXTERNAL_ID_TAKEN } from './journal.service.js';

const EMAIL_ERRORS = ['email is required', 'email is invalid'];
const FIELD_ERRORS = [
  'strategy is required',
  'asset is required',
  'buyExchange is required',
  'sellExchange is required',
  'openedAt is required',
  'quantity is required',
  'entryBuyPrice is required',
  'entrySellPrice is required',
  'exitSellPrice is required',
  'exitBuyPrice is required',
  'strategy must be one of spot_futures, cross_exchange, funding, other',
  'openedAt must be an RFC 3339 timestamp',
  'quantity must be zero or a positive number',
  'quantity or shortQuantity must be a positive number',
  'entryBuyPrice must be a positive number',
  'funding must be a number',
  'closedAt must not be before openedAt',
  'feesEstimated must be true or false',
  'source must be at most 32 characters',
  'externalId must be at most 128 characters',
  'notes must be at most 2000 characters',
];
const FILTER_ERRORS = [
  ...EMAIL_ERRORS,
  'status must be one of open, closed',
  'strategy must be one of spot_futures, cross_exchange, funding, other',
  'from must be an RFC 3339 timestamp',
  'to must be an RFC 3339 timestamp',
  'to must be after from',
];
const ID = new UuidParam(OPERATION_NOT_FOUND);

@ApiTags('journal')
@Controller('v1/journal')
export class JournalController {
  constructor(
    private readonly journal: JournalService,
    private readonly csv: JournalCsvService,
  ) {}

  @Post('operations')
  @HttpCode(HttpStatus.CREATED)
  @FailureMessage('Failed to create operation')
  @ApiOperation({ operationId: 'createJournalOperation', summary: 'Record an operation; giving closedAt records it closed' })
  @ApiCreatedResponse({ type: OperationDto })
  @ApiErrors({ 400: ['Invalid request body', ...EMAIL_ERRORS, ...FIELD_ERRORS], 409: [EXTERNAL_ID_TAKEN], 500: ['Failed to create operation'] })
  create(@Body() dto: CreateOperationDto): Promise<OperationDto> {
    return this.journal.create(dto);
  }

  @Get('operations')
  @FailureMessage('Failed to get operations')
  @ApiOperation({ operationId: 'listJournalOperations', summary: "A user's operations, newest opened first, with filters" })
  @ApiOkResponse({ type: OperationPageDto })
  @ApiErrors({
    400: [...FILTER_ERRORS, 'limit must be an integer from 1 to 500', 'offset must be an integer of 0 or more'],
    500: ['Failed to get operations'],
  })
  list(@Query() query: ListOperationsQueryDto): Promise<OperationPageDto> {
    return this.journal.list(query);
  }

  @Get('operations/:id')
  @FailureMessage('Failed to get operation')
  @ApiOperation({ operationId: 'getJournalOperation', summary: 'One operation of the user' })
  @ApiOkResponse({ type: OperationDto })
  @ApiErrors({ 400: EMAIL_ERRORS, 404: [OPERATION_NOT_FOUND], 500: ['Failed to get operation'] })
  @ApiIdParam('Identifier of the operation')
  get(@Param('id', ID) id: string, @Query() query: OperationOwnerQueryDto): Promise<OperationDto> {
    return this.journal.get(id, query.email);
  }

  @Patch('operations/:id')
  @FailureMessage('Failed to update operation')
  @ApiOperation({ operationId: 'updateJournalOperation', summary: 'Correct an operation, or close an open one by setting closedAt and its exit prices' })
  @ApiOkResponse({ type: OperationDto })
  @ApiErrors({
    400: ['Invalid request body', ...EMAIL_ERRORS, ...FIELD_ERRORS, 'closedAt cannot be removed from a closed operation'],
    404: [OPERATION_NOT_FOUND],
    409: [EXTERNAL_ID_TAKEN],
    500: ['Failed to update operation'],
  })
  @ApiIdParam('Identifier of the operation')
  update(
    @Param('id', ID) id: string,
    @Query() query: OperationOwnerQueryDto,
    @Body() patch: UpdateOperationDto,
  ): Promise<OperationDto> {
    return this.journal.update(id, query.email, patch);
  }

  @Delete('operations/:id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @FailureMessage('Failed to delete operation')
  @ApiOperation({ operationId: 'deleteJournalOperation', summary: 'Delete an operation of the user' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 400: EMAIL_ERRORS, 404: [OPERATION_NOT_FOUND], 500: ['Failed to delete operation'] })
  @ApiIdParam('Identifier of the operation')
  remove(@Param('id', ID) id: string, @Query() query: OperationOwnerQueryDto): Promise<void> {
    return this.journal.remove(id, query.email);
  }

  @Get('summary')
  @FailureMessage('Failed to get journal summary')
  @ApiOperation({
    operationId: 'getJournalSummary',
    summary: 'Results of closed operations with closedAt in [from, to)',
    description: '`from` optional (unbounded), `to` optional (now). Days of `series` are São Paulo calendar days.',
  })
  @ApiOkResponse({ type: JournalSummaryDto })
  @ApiErrors({
    400: [
      ...FILTER_ERRORS.filter((m) => !m.startsWith('status')),
      'capital must be a number above 0 and below 1e13', 'breakdown must be one of day, week, month', CAPITAL_NEEDED,
    ],
    500: ['Failed to get journal summary'],
  })
  summary(@Query() query: SummaryQueryDto): Promise<JournalSummaryDto> {
    return this.journal.summary(query);
  }

  @Get('export.csv')
  @FailureMessage('Failed to export journal')
  @ApiOperation({
    operationId: 'exportJournalCsv',
    summary: 'Every matching operation as CSV, newest opened first',
    description: `Columns: ${CSV_HEADER.join(', ')}. Dates RFC 3339 in São Paulo time; text cells starting with = + - @ tab or CR get a leading apostrophe.`,
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV attachment journal.csv', content: { 'text/csv': { schema: { type: 'string', example: `${CSV_HEADER.join(',')}\n` } } } })
  @ApiErrors({ 400: FILTER_ERRORS, 500: ['Failed to export journal'] })
  async export(@Query() query: OperationFiltersDto, @Res() res: Response): Promise<void> {
    await this.csv.export(query, res);
  }

  @Post('import')
  @HttpCode(HttpStatus.OK)
  @FailureMessage('Failed to import journal')
  @ApiOperation({
    operationId: 'importJournalCsv',
    summary: 'Import operations from a CSV with the export header, up to 64 MiB',
    description:
      'Rows with an external_id that exists for (email, source) update that operation; others create one. ' +
      'Invalid rows are reported with their line and store nothing; valid rows are stored.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({ schema: { type: 'string', example: `${CSV_HEADER.join(',')}\n` } })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiErrors({
    400: [...EMAIL_ERRORS, `CSV header must be: ${CSV_HEADER.join(',')}`, 'CSV could not be read: …'],
    413: ['request body too large'],
    415: ['unsupported content type'],
    500: ['Failed to import journal'],
  })
  import(@Query() query: OperationOwnerQueryDto, @Body() body: unknown): Promise<ImportResultDto> {
    return this.csv.import(query.email, body);
  }
}
