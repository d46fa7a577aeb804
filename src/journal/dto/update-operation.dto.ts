import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateOperationDto } from './create-operation.dto.js';

/**
 * PATCH body: any subset of the writable fields (null clears an optional one). Each present
 * value is checked here; the merged operation is then checked again as a whole (the `journal` rule rules such
 * as "closing needs the exit prices"), so the rules live in one place.
 */
export class UpdateOperationDto extends PartialType(OmitType(CreateOperationDto, ['email'] as const)) {}
