// Checks scamcheckd's OpenAPI document and every response the integration
// tests recorded against it:
//  1. /docs/api is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator);
//  2. each recorded response has a status the document declares for its
//     operation, the declared media type, a body valid against the declared
//     schema (Ajv, JSON Schema 2020-12) and the declared headers.
//
//   node openapi_check.mjs responses.jsonl
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const file = process.argv[2];
const records = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const docRecord = records.find((r) => r.method === "GET" && r.path === "/docs/api" && r.status === 200);
if (!docRecord) {
  console.error("no GET /docs/api response recorded");
  process.exit(1);
}
const doc = JSON.parse(docRecord.body);

const validator = new Validator();
const result = await validator.validate(doc);
if (!result.valid) {
  console.error("/docs/api is not a valid OpenAPI 3.1 document:");
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
console.log(`/docs/api: valid OpenAPI ${doc.openapi} (${Object.keys(doc.paths).length} paths)`);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const base = "https://scamcheck.invalid/openapi.json";
ajv.addSchema({ $id: base, components: doc.components });
const schemaFor = (ref) => {
  const validate = ajv.getSchema(base + ref);
  if (!validate) throw new Error(`unresolvable schema ${ref}`);
  return validate;
};
const headerRef = (h) => (h.$ref ? h.$ref.split("/").pop() : null);

const templates = Object.keys(doc.paths).map((path) => ({
  path,
  regex: new RegExp("^" + path.replace(/\{[^}]+\}/g, "[^/]+") + "$"),
}));

const failures = [];
const seen = new Set();
for (const r of records) {
  const where = `${r.method} ${r.path} -> ${r.status}`;
  const fail = (why) => failures.push(`${where}: ${why}`);
  const contentType = (r.headers["content-type"] || "").split(";")[0].trim();
  if (!r.headers["x-request-id"]) fail("no X-Request-ID");

  const template = templates.find((t) => t.regex.test(r.path));
  const operation = template && doc.paths[template.path][r.method.toLowerCase()];
  if (!operation) {
    // No such route or method: a problem document (404, 405, or an early 400/431).
    if (![400, 404, 405, 431].includes(r.status)) fail("undeclared route answered " + r.status);
    if (contentType !== "application/problem+json") fail("not a problem document");
    const validate = schemaFor("#/components/schemas/Problem");
    if (!validate(JSON.parse(r.body))) fail(ajv.errorsText(validate.errors));
    if (r.status === 405 && !r.headers["allow"]) fail("405 without Allow");
    continue;
  }
  seen.add(`${operation.operationId} ${r.status}`);
  const spec = operation.responses[String(r.status)];
  if (!spec) {
    fail(`status not declared for ${operation.operationId}`);
    continue;
  }
  for (const [name, h] of Object.entries(spec.headers || {})) {
    if (!(name.toLowerCase() in r.headers)) fail(`missing header ${name}`);
    const schema = doc.components.headers[headerRef(h)]?.schema;
    if (schema?.type === "integer" && !/^-?\d+$/.test(r.headers[name.toLowerCase()] ?? "0")) {
      fail(`header ${name} is not an integer`);
    }
  }
  if (!spec.content) {
    if (r.body !== "") fail("body where none is declared");
    continue;
  }
  const media = spec.content[contentType];
  if (!media) {
    fail(`media type ${contentType} not declared (${Object.keys(spec.content)})`);
    continue;
  }
  if (!contentType.endsWith("json")) continue;  // e.g. image/svg+xml: no JSON schema to apply
  let body;
  try {
    body = JSON.parse(r.body);
  } catch (e) {
    fail("body is not JSON");
    continue;
  }
  const validate = schemaFor(media.schema.$ref);
  if (!validate(body)) fail(ajv.errorsText(validate.errors));
}

console.log(`${records.length} responses checked; operation/status pairs seen: ${[...seen].sort().join(", ")}`);
if (failures.length) {
  const unique = [...new Set(failures)];
  console.error(`${unique.length} distinct failures:`);
  for (const f of unique.slice(0, 50)) console.error("  " + f);
  process.exit(1);
}
console.log("every response matches the OpenAPI document");
