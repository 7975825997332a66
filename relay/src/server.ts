/**
 * HTTP and WebSocket in front of the engine (Fastify): JSON-schema validation of every body and query (Ajv, before
 * a handler runs), a body size limit checked before the body is read, per-IP rate limits on every route (checked
 * when the request arrives, before parsing), typed error bodies, and the OpenAPI document generated from the same
 * schemas (served at /openapi.json, committed as relay/openapi.json).
 */
import Fastify, { LogController, type FastifyError, type FastifyInstance } from "fastify";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import websocket from "@fastify/websocket";
import type { Logger } from "pino";
import { RELAY_ERROR_CODES, type RelayErrorBody } from "@chx/sdk";
import type { RelayConfig } from "./config.js";
import type { Engine, PostBody } from "./engine.js";
import { RelayHttpError } from "./errors.js";

// ───────────────────────────── schemas (the API's single source: validation, serialisation, OpenAPI)

const uint = { type: "string", pattern: "^(0|[1-9][0-9]{0,77})$", description: "unsigned integer, decimal" } as const;
const address = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } as const;
const hash32 = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" } as const;
const signature = {
  type: "string",
  pattern: "^0x([0-9a-fA-F]{2}){1,2048}$",
  description: "EIP-712 signature: 65 bytes for an EOA, up to 2 KiB for an ERC-1271 wallet",
} as const;

const spotOrder = {
  type: "object",
  description: "SpotMarket Order, as signed (docs/spot.md)",
  required: ["maker", "isBuy", "amountCh", "priceWad", "nonce", "expiry", "taker"],
  additionalProperties: false,
  properties: {
    maker: address,
    isBuy: { type: "boolean" },
    amountCh: uint,
    priceWad: uint,
    nonce: uint,
    expiry: uint,
    taker: address,
  },
} as const;
const optionOffer = {
  type: "object",
  description: "OptionsMarket Offer, as signed (docs/options.md)",
  required: ["maker", "seriesId", "isBuy", "sizeCh", "premiumWad", "nonce", "expiry", "taker"],
  additionalProperties: false,
  properties: {
    maker: address,
    seriesId: uint,
    isBuy: { type: "boolean" },
    sizeCh: uint,
    premiumWad: uint,
    nonce: uint,
    expiry: uint,
    taker: address,
  },
} as const;

const postBody = {
  type: "object",
  required: ["kind", "market", "chainId", "signature"],
  additionalProperties: false,
  properties: {
    kind: {
      type: "string",
      enum: ["spot", "option", "futures"],
      description: "futures: not relayed yet (UNSUPPORTED_KIND)",
    },
    market: { ...address, description: "the verifying contract (SpotMarket or OptionsMarket proxy)" },
    chainId: uint,
    order: spotOrder,
    offer: optionOffer,
    signature,
  },
} as const;

const errorBody = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: [...RELAY_ERROR_CODES] },
        message: { type: "string" },
        details: { type: "object", additionalProperties: true },
      },
    },
  },
} as const;

const orderView = {
  type: "object",
  required: [
    "hash",
    "kind",
    "book",
    "market",
    "chainId",
    "maker",
    "side",
    "price",
    "amount",
    "filled",
    "fillable",
    "nonce",
    "expiry",
    "status",
    "reason",
    "softCancelled",
    "order",
    "signature",
    "createdAt",
    "updatedBlock",
  ],
  properties: {
    hash: hash32,
    kind: { type: "string", enum: ["spot", "option", "futures"] },
    book: { type: "string" },
    market: address,
    chainId: uint,
    maker: address,
    side: { type: "string", enum: ["buy", "sell"] },
    price: uint,
    amount: uint,
    filled: uint,
    fillable: uint,
    nonce: uint,
    expiry: uint,
    status: { type: "string", enum: ["open", "unfunded", "filled", "cancelled", "expired"] },
    reason: { type: ["string", "null"] },
    softCancelled: { type: "boolean" },
    order: { type: "object", additionalProperties: true, description: "the signed message (decimal strings)" },
    signature: { type: "string" },
    createdAt: { type: "integer" },
    updatedBlock: { type: "integer" },
  },
} as const;

const level = {
  type: "object",
  required: ["price", "amount", "orders"],
  properties: { price: uint, amount: uint, orders: { type: "integer" } },
} as const;

const fill = {
  type: "object",
  properties: {
    txHash: hash32,
    logIndex: { type: "integer" },
    blockNumber: { type: "integer" },
    orderHash: hash32,
    book: { type: "string" },
    maker: address,
    counterparty: address,
    amount: uint,
    price: uint,
    filledAfter: uint,
  },
} as const;

const cancel = {
  type: "object",
  properties: {
    orderHash: hash32,
    maker: address,
    book: { type: "string" },
    via: { type: "string", enum: ["notice", "chain", "minNonce"] },
    blockNumber: { type: ["integer", "null"] },
    at: { type: "integer" },
  },
} as const;

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorBody]));
const bookName = { type: "string", pattern: "^(spot|option:[0-9]{1,78}|futures:[0-9]{1,78})$" } as const;

export async function buildServer(
  engine: Engine | null,
  cfg: RelayConfig,
  logger: Logger | false,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger === false ? undefined : logger,
    logger: logger === false ? false : undefined,
    bodyLimit: cfg.bodyLimitBytes,
    trustProxy: cfg.trustProxy,
    requestTimeout: 10_000,
    connectionTimeout: 15_000,
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: "array", allErrors: false } },
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;

  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "CHX order relay",
        version: "1.0.0",
        description:
          "Signed CH/USDC spot orders and option offers, validated at the door and kept in step with the chain " +
          "(docs/relay.md). Errors: `{ error: { code, message, details? } }`; every error response lists the codes in its `code` enum. " +
          "Stream: WebSocket `GET /v1/stream?books=spot,option:<id>&maker=0x…` sends JSON text frames " +
          "(SDK `RelayStreamMessage`): `hello`, `book` (top 50 levels after every change), `order`, `fill`, `block`, " +
          "`reorg`; without `books` or `maker` it sends every book.",
      },
      tags: [
        { name: "orders", description: "post, read, cancel" },
        { name: "books", description: "levels, depth, fills" },
        { name: "relay", description: "status, stream" },
      ],
    },
  });
  await app.register(rateLimit, {
    global: true,
    max: cfg.ipRateLimit.max,
    timeWindow: cfg.ipRateLimit.windowMs,
    keyGenerator: (req) => req.ip,
    errorResponseBuilder: (_req, ctx) =>
      new RelayHttpError(
        "RATE_LIMITED",
        `too many requests from this address; retry in ${Math.ceil(ctx.ttl / 1000)} s`,
        {
          limit: ctx.max,
          windowMs: cfg.ipRateLimit.windowMs,
        },
      ),
  });
  await app.register(websocket, { options: { maxPayload: 4096 } });

  app.setErrorHandler((err: FastifyError | RelayHttpError, _req, reply) => {
    if (err instanceof RelayHttpError) return reply.code(err.status).send(err.body());
    const e = err as FastifyError;
    let body: RelayErrorBody;
    let status = e.statusCode ?? 500;
    if (e.validation !== undefined) {
      status = 400;
      body = {
        error: {
          code: "BAD_REQUEST",
          message: `${e.validationContext ?? "request"} ${e.message}`,
          details: { errors: e.validation.slice(0, 5) as unknown as Record<string, unknown> },
        },
      };
    } else if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE" || status === 413) {
      status = 413;
      body = { error: { code: "PAYLOAD_TOO_LARGE", message: `the body exceeds ${cfg.bodyLimitBytes} bytes` } };
    } else if (status >= 400 && status < 500) {
      body = { error: { code: "BAD_REQUEST", message: e.message } };
    } else {
      app.log.error({ err: e }, "relay: unexpected error");
      status = 500;
      body = { error: { code: "INTERNAL", message: "internal error" } };
    }
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ error: { code: "NOT_FOUND", message: `no route ${req.method} ${req.url.split("?")[0]}` } }),
  );

  const eng = (): Engine => {
    if (engine === null) throw new RelayHttpError("INTERNAL", "no engine (document-only server)");
    return engine;
  };

  app.post(
    "/v1/orders",
    {
      schema: {
        tags: ["orders"],
        summary: "Post a signed spot order or option offer",
        description:
          "Validated before anything is stored: chain and market, public orders only, bounds, the EIP-712 signature " +
          "(EOA, or ERC-1271 for a contract maker) against the market's own domain, expiry, the maker's nonces and " +
          "cancel state, and what the maker can pay or deliver (balance and allowance, or ClearingHouse collateral) " +
          "at the newest block. Idempotent: posting an order the relay holds live answers 200 with `created: false`; a " +
          "finished one answers its state (FILLED, CANCELLED, EXPIRED).",
        body: postBody,
        response: {
          200: { type: "object", properties: { created: { type: "boolean" }, order: orderView } },
          201: { type: "object", properties: { created: { type: "boolean" }, order: orderView } },
          ...errors(400, 409, 413, 422, 429, 503),
        },
      },
    },
    async (req, reply) => {
      const r = await eng().post(req.body as PostBody);
      return reply.code(r.created ? 201 : 200).send(r);
    },
  );

  app.get(
    "/v1/orders/:hash",
    {
      schema: {
        tags: ["orders"],
        summary: "An order's status and its fills",
        params: { type: "object", required: ["hash"], properties: { hash: hash32 } },
        response: {
          200: { type: "object", properties: { order: orderView, fills: { type: "array", items: fill } } },
          ...errors(400, 404),
        },
      },
    },
    async (req) => {
      const { hash } = req.params as { hash: string };
      const row = await eng().store.order(hash.toLowerCase());
      if (row === undefined) throw new RelayHttpError("NOT_FOUND", `no order ${hash}`);
      return { order: eng().store.view(row), fills: await eng().store.fillsOf(row.hash) };
    },
  );

  app.post(
    "/v1/orders/:hash/cancel",
    {
      schema: {
        tags: ["orders"],
        summary: "Cancel notice: the maker asks the relay to stop serving an order",
        description:
          "Signed by the maker (EIP-712 `CancelNotice(bytes32 orderHash)`, domain `CHX Relay` / `1` / chain id; the " +
          "SDK's `signCancelNotice`). The relay stops serving the order at once; the order stays valid ON CHAIN " +
          "until the maker cancels it there (cancelOrder / cancelOffer / raiseMinNonce), because anyone who copied it " +
          "can still fill it.",
        params: { type: "object", required: ["hash"], properties: { hash: hash32 } },
        body: { type: "object", required: ["signature"], additionalProperties: false, properties: { signature } },
        response: { 200: { type: "object", properties: { order: orderView } }, ...errors(400, 404, 422, 429) },
      },
    },
    async (req) => {
      const { hash } = req.params as { hash: string };
      const { signature: sig } = req.body as { signature: string };
      return { order: await eng().cancelNotice(hash.toLowerCase(), sig) };
    },
  );

  app.get(
    "/v1/makers/:maker/orders",
    {
      schema: {
        tags: ["orders"],
        summary: "A maker's orders (live: open or unfunded; all: every status), newest first",
        params: { type: "object", required: ["maker"], properties: { maker: address } },
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            status: { type: "string", enum: ["live", "all"], default: "live" },
            limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
          },
        },
        response: {
          200: { type: "object", properties: { orders: { type: "array", items: orderView } } },
          ...errors(400),
        },
      },
    },
    async (req) => {
      const { maker } = req.params as { maker: string };
      const q = req.query as { status: "live" | "all"; limit: number };
      const rows = await eng().store.makerOrders(maker, q.status === "live", q.limit);
      return { orders: rows.map((r) => eng().store.view(r)) };
    },
  );

  app.get(
    "/v1/books",
    {
      schema: {
        tags: ["books"],
        summary: "The books the relay holds orders for",
        response: { 200: { type: "object", properties: { books: { type: "array", items: { type: "string" } } } } },
      },
    },
    async () => ({ books: eng().books.names() }),
  );

  app.get(
    "/v1/books/:book",
    {
      schema: {
        tags: ["books"],
        summary: "A book's price levels (best first) and, with `orders`, its first orders, signed",
        description:
          "`spot`, `option:<seriesId>`. Levels sum the fillable amounts (what the makers can pay or deliver at the " +
          "block in `block`). Orders are in price-time priority.",
        params: { type: "object", required: ["book"], properties: { book: bookName } },
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            depth: { type: "integer", minimum: 1, maximum: 10_000, default: 100 },
            orders: { type: "integer", minimum: 0, maximum: 500, default: 0 },
          },
        },
        response: {
          200: {
            type: "object",
            properties: {
              book: { type: "string" },
              block: { type: "integer" },
              bids: { type: "array", items: level },
              asks: { type: "array", items: level },
              orders: {
                type: "object",
                properties: { bids: { type: "array", items: orderView }, asks: { type: "array", items: orderView } },
              },
            },
          },
          ...errors(400),
        },
      },
    },
    async (req) => {
      const { book } = req.params as { book: string };
      const q = req.query as { depth: number; orders: number };
      return eng().books.snapshot(book, eng().syncedBlock, q.depth, q.orders);
    },
  );

  app.get(
    "/v1/fills",
    {
      schema: {
        tags: ["books"],
        summary: "Recent fills (newest first), of a book and/or a maker",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            book: bookName,
            maker: address,
            limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
          },
        },
        response: { 200: { type: "object", properties: { fills: { type: "array", items: fill } } }, ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as { book?: string; maker?: string; limit: number };
      return { fills: await eng().store.fills(q) };
    },
  );

  app.get(
    "/v1/cancels",
    {
      schema: {
        tags: ["orders"],
        summary: "Cancel notices and on-chain cancels since a time (ms), oldest first",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            since: { type: "integer", minimum: 0, default: 0 },
            limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
          },
        },
        response: {
          200: { type: "object", properties: { cancels: { type: "array", items: cancel } } },
          ...errors(400),
        },
      },
    },
    async (req) => {
      const q = req.query as { since: number; limit: number };
      return { cancels: await eng().store.cancels(q.since, q.limit) };
    },
  );

  app.get(
    "/v1/status",
    {
      schema: {
        tags: ["relay"],
        summary: "The relay's chain, markets, sync position and order counts",
        response: {
          200: {
            type: "object",
            properties: {
              chainId: uint,
              markets: { type: "object", additionalProperties: { type: "string" } },
              head: { type: "integer" },
              syncedBlock: { type: "integer" },
              blocksBehind: { type: "integer" },
              confirmations: { type: "integer" },
              orders: { type: "object", properties: { open: { type: "integer" }, unfunded: { type: "integer" } } },
              books: { type: "array", items: { type: "string" } },
              database: { type: "string" },
            },
          },
        },
      },
    },
    async () => eng().status(),
  );

  app.get(
    "/health",
    {
      schema: {
        tags: ["relay"],
        summary: "Liveness: 200 while the chain follower keeps up, 503 when its last round failed",
        response: {
          200: { type: "object", properties: { ok: { type: "boolean" }, syncedBlock: { type: "integer" } } },
          503: { type: "object", properties: { ok: { type: "boolean" }, error: { type: "string" } } },
        },
      },
    },
    async (_req, reply) => {
      const e = eng();
      if (e.lastSyncError !== undefined) return reply.code(503).send({ ok: false, error: e.lastSyncError });
      return { ok: true, syncedBlock: e.syncedBlock };
    },
  );

  app.get(
    "/v1/stream",
    {
      websocket: true,
      schema: {
        tags: ["relay"],
        summary: "WebSocket: book snapshots (top 50 levels) after every change, orders, fills, blocks, reorgs",
        description:
          "Messages are JSON text frames (SDK RelayStreamMessage): hello, book, order, fill, block, reorg. " +
          "`books` (comma-separated; default: all) and `maker` (that maker's orders and fills) choose what is sent.",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            books: { type: "string", pattern: "^((spot|option:[0-9]{1,78}|futures:[0-9]{1,78}),?){0,64}$" },
            maker: address,
          },
        },
      },
    },
    (socket, req) => {
      const q = req.query as { books?: string; maker?: string };
      const books =
        q.books === undefined ? (q.maker === undefined ? "all" : []) : q.books.split(",").filter((b) => b !== "");
      const e = eng();
      const remove = e.hub.add(socket, books, q.maker);
      socket.on("close", remove);
      socket.on("message", () => socket.close(1003, "the stream is one-way"));
      socket.send(JSON.stringify({ type: "hello", block: e.syncedBlock, books: e.books.names() }));
    },
  );

  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  return app;
}
