/**
 * The stream's subscribers: each WebSocket names the books it follows and, optionally, one maker whose orders it
 * follows. Messages are JSON text frames (SDK `RelayStreamMessage`). A subscriber that does not keep up (more than
 * `maxBufferedBytes` waiting) is disconnected rather than let the relay's memory grow.
 */
import type { RelayStreamMessage } from "@chx/sdk";

export interface StreamSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  readonly bufferedAmount: number;
}

interface Subscriber {
  socket: StreamSocket;
  books: Set<string> | "all";
  maker?: string;
}

export class Hub {
  private readonly subs = new Set<Subscriber>();
  constructor(private readonly maxBufferedBytes = 4 * 1024 * 1024) {}

  add(socket: StreamSocket, books: string[] | "all", maker?: string): () => void {
    const s: Subscriber = { socket, books: books === "all" ? "all" : new Set(books), maker: maker?.toLowerCase() };
    this.subs.add(s);
    return () => this.subs.delete(s);
  }

  get size(): number {
    return this.subs.size;
  }

  private send(s: Subscriber, text: string): void {
    if (s.socket.bufferedAmount > this.maxBufferedBytes) {
      this.subs.delete(s);
      s.socket.close(1013, "slow consumer");
      return;
    }
    try {
      s.socket.send(text);
    } catch {
      this.subs.delete(s);
    }
  }

  /** To every subscriber of `book` (and, with `maker`, to that maker's subscribers). */
  publish(msg: RelayStreamMessage, book?: string, maker?: string): void {
    if (this.subs.size === 0) return;
    const text = JSON.stringify(msg);
    const m = maker?.toLowerCase();
    for (const s of this.subs) {
      const byBook = book === undefined || s.books === "all" || s.books.has(book);
      const byMaker = m !== undefined && s.maker === m;
      if (byBook || byMaker) this.send(s, text);
    }
  }

  closeAll(): void {
    for (const s of this.subs) s.socket.close(1001, "relay stopping");
    this.subs.clear();
  }
}
