import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/http/api-errors.decorator.js';
import { BOOK_400, bookNotHeld } from './book-query.js';
import { DepthService } from './depth.service.js';
import { MarketBookDto, MarketBookQueryDto } from './dto/market-book.dto.js';
import { EXCHANGE_LIST } from '../../market-model/exchanges.js';

const EXCHANGES_400 = `exchange must be one of ${EXCHANGE_LIST}`;

@ApiTags('market')
@Controller('v1/market')
export class MarketBooksController {
  constructor(private readonly depth: DepthService) {}

  @Get('books')
  @ApiOperation({
    operationId: 'getMarketBook',
    summary: 'The order book the service holds for one market (20 levels a side)',
    description: 'Books are held for both legs of every open spot route and for DEPTH_GRACE_MS after it closes, at most ' +
      'DEPTH_MAX_BOOKS at once; any other book is 404 `book not held: …` naming the spot books the exchange holds (the ' +
      'first 10 and their count), or why it holds none. For the web app and for debugging.',
  })
  @ApiOkResponse({ type: MarketBookDto })
  @ApiErrors({ 400: [EXCHANGES_400, BOOK_400.market, BOOK_400.ticker], 404: [bookNotHeld('binance', ['BTC-USDT', 'ETH-USDT'])] })
  book(@Query() query: MarketBookQueryDto): MarketBookDto {
    return this.depth.bookFor({ ...query });
  }
}
