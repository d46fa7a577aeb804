import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/http/api-errors.decorator.js';
import { BOOK_400, BOOK_503, bookNotHeld } from './book-query.js';
import { DEPTH_DEMAND_HOLD_MS, DEPTH_DEMAND_MAX, DEPTH_DEMAND_WAIT_MS, DepthService } from './depth.service.js';
import { MarketBookDto, MarketBookQueryDto } from './dto/market-book.dto.js';
import { DEFAULT_EXCHANGES, FIRST_EXCHANGE } from '../../market-model/exchanges.js';


@ApiTags('market')
@Controller('v1/market')
export class MarketBooksController {
  constructor(private readonly depth: DepthService) {}

  @Get('books')
  @ApiOperation({
    operationId: 'getMarketBook',
    summary: 'The order book of one market (20 levels a side): held for open routes, or fetched on request',
    description: 'Books are held for both legs of every open spot route and for DEPTH_GRACE_MS after it closes, at most ' +
      'DEPTH_MAX_BOOKS at once. Any other market the venue lists (spot or perpetual) is asked of the venue on request, within ' +
      `its subscribe budget, answered with its first state (waited for up to ${DEPTH_DEMAND_WAIT_MS / 1000} s) and held for ` +
      `${DEPTH_DEMAND_HOLD_MS / 60_000} minutes after the last request, at most ${DEPTH_DEMAND_MAX} such books at once. ` +
      '404 `book not held: …` only for a market the venue does not list (or with the feeds or books off), naming the books the exchange ' +
      'holds (the first 10 and their count). For the web app and for debugging.',
  })
  @ApiOkResponse({ type: MarketBookDto })
  @ApiErrors({
    400: [BOOK_400.exchange(DEFAULT_EXCHANGES), BOOK_400.market, BOOK_400.ticker],
    404: [
      bookNotHeld(FIRST_EXCHANGE, ['SPOT BTC-USDT', 'SPOT ETH-USDT'], { market: 'SPOT', ticker: 'FOO-USDT' }),
      bookNotHeld(FIRST_EXCHANGE, [], 'feeds off'),
      bookNotHeld(FIRST_EXCHANGE, null, 'feeds off'),
    ],
    503: [BOOK_503.full(DEPTH_DEMAND_MAX), BOOK_503.markets(FIRST_EXCHANGE), BOOK_503.late(FIRST_EXCHANGE, DEPTH_DEMAND_WAIT_MS)],
  })
  book(@Query() query: MarketBookQueryDto): Promise<MarketBookDto> {
    return this.depth.bookFor({ ...query });
  }
}
