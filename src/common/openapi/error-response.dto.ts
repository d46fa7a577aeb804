import { ApiProperty } from '@nestjs/swagger';

/** The `errors` rule: the body of every error. */
export class ErrorResponseDto {
  @ApiProperty({ type: 'integer', example: 400, description: 'The HTTP status, repeated' })
  statusCode: number;

  @ApiProperty({ type: 'string', example: 'email is required', description: 'One message: the first problem found' })
  message: string;

  @ApiProperty({ type: 'string', example: 'Bad Request', description: 'The reason phrase of the status' })
  error: string;
}
