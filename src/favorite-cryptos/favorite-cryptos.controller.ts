import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ApiIdParam } from '../common/openapi/api-field.decorator.js';
import { UuidParam } from '../common/validation/uuid-param.pipe.js';
import { CreateFavoriteCryptoDto } from './dto/create-favorite-crypto.dto.js';
import { FavoriteCryptoDto } from './dto/favorite-crypto.dto.js';
import { OwnerQueryDto } from './dto/owner-query.dto.js';
import { FavoriteCryptosService } from './favorite-cryptos.service.js';

@ApiTags('favorite-cryptos')
@Controller('v1/favorite-cryptos')
export class FavoriteCryptosController {
  constructor(private readonly favorites: FavoriteCryptosService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @FailureMessage('Failed to create favorite crypto')
  @ApiOperation({ operationId: 'createFavoriteCrypto', summary: 'Add a favorite crypto; the (email, ticker) pair is unique' })
  @ApiCreatedResponse({ type: FavoriteCryptoDto })
  @ApiErrors({
    400: ['Invalid request body', 'email is required', 'ticker is required', 'email is invalid', 'ticker is invalid'],
    409: ['favorite crypto already exists'],
    500: ['Failed to create favorite crypto'],
  })
  create(@Body() dto: CreateFavoriteCryptoDto): Promise<FavoriteCryptoDto> {
    return this.favorites.create(dto);
  }

  @Get()
  @FailureMessage('Failed to get favorite cryptos')
  @ApiOperation({ operationId: 'listFavoriteCryptos', summary: "A user's favorite cryptos, newest first" })
  @ApiOkResponse({ type: [FavoriteCryptoDto] })
  @ApiErrors({ 400: ['email is required', 'email is invalid'], 500: ['Failed to get favorite cryptos'] })
  list(@Query() query: OwnerQueryDto): Promise<FavoriteCryptoDto[]> {
    return this.favorites.list(query.email);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @FailureMessage('Failed to delete favorite crypto')
  @ApiOperation({ operationId: 'deleteFavoriteCrypto', summary: 'Remove one of the user’s favorite cryptos' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors({
    400: ['email is required', 'email is invalid'],
    404: ['favorite crypto not found'],
    500: ['Failed to delete favorite crypto'],
  })
  @ApiIdParam('Identifier of the favorite crypto')
  remove(@Param('id', new UuidParam('favorite crypto not found')) id: string, @Query() query: OwnerQueryDto): Promise<void> {
    return this.favorites.remove(id, query.email);
  }
}
