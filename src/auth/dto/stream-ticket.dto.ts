import { ApiField } from '../../common/openapi/api-field.decorator.js';

export class StreamTicketDto {
  @ApiField.string({
    description: 'Opens ONE stream within 60 s as `?ticket=<ticket>`; the stream then acts for this token',
    pattern: '^amk_[A-Za-z0-9_-]{43}$',
    example: 'amk_3q2-7wEvxGfF0kFvS3dUa3TRh0Yy4rC0a3zvYH8mQ1c',
  })
  ticket: string;

  @ApiField.unixMillis({ description: 'When the ticket stops working, Unix milliseconds' })
  expiresAt: number;
}
