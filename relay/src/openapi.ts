/** The relay's OpenAPI document, generated from the routes' schemas (no chain, no database needed). */
import { defaultRelayConfig } from "./config.js";
import { buildServer } from "./server.js";

export async function openapiDocument(): Promise<string> {
  const app = await buildServer(null, defaultRelayConfig("localhost"), false);
  await app.ready();
  const doc = JSON.stringify(app.swagger(), null, 2);
  await app.close();
  return doc;
}
