import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate --config server/drizzle.config.ts` writes a new migration after a
// change to server/src/db/schema.ts; the server applies pending migrations at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/src/db/schema.ts",
  out: "./server/drizzle",
});
