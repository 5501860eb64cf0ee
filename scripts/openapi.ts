/**
 * `npm run docs:openapi`: writes the API's OpenAPI 3.1 document, generated from its declaration
 * (common/api), to docs/openapi.json, for integrators who read the repository. The server suite
 * fails when the file is out of date.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../server/src/routes/openapiDocument";

const file = path.resolve(__dirname, "..", "docs", "openapi.json");
const doc = openApiDocument();
writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`Wrote docs/openapi.json: ${Object.keys(doc.paths ?? {}).length} paths, OpenAPI ${doc.openapi}.`);
