import { Controller, HttpCode, HttpStatus, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppError } from '../common/errors/app-error.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { callerOf } from '../common/http/request-context.js';
import { StreamTicketDto } from './dto/stream-ticket.dto.js';
import { StreamTickets } from './stream-tickets.js';

export const TICKETS_NEED_TOKEN_MODE = 'stream tickets exist only when AUTH_MODE is token';

@ApiTags('auth')
@Controller('v1/auth')
export class AuthController {
  constructor(private readonly tickets: StreamTickets) {}

  @Post('stream-ticket')
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({
    operationId: 'createStreamTicket',
    summary: 'A single-use ticket to open one stream from a browser, where EventSource cannot send the bearer header',
  })
  @ApiCreatedResponse({ type: StreamTicketDto })
  @ApiErrors({ 404: [TICKETS_NEED_TOKEN_MODE] })
  createStreamTicket(@Req() req: Request): Promise<StreamTicketDto> {
    const caller = callerOf(req);
    // With AUTH_MODE=none the guard names no caller, and streams need no ticket.
    if (!caller) throw AppError.notFound(TICKETS_NEED_TOKEN_MODE);
    return this.tickets.issue(caller);
  }
}
