// A node:test reporter that ends the run with the one line CI counts (`N passed, N failed`, scripts/test.mjs), used
// beside the spec reporter by `npm run gates` for the scripts' own tests (scripts/test/). Suites are not counted.
export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    if (event.data.details?.type === "suite") continue;
    if (event.type === "test:pass") passed++;
    else failed++;
  }
  yield `${passed} passed, ${failed} failed\n`;
}
