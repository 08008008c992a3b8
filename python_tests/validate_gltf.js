// Validates one glTF/GLB file with the Khronos validator; prints a JSON summary.
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');
const file = process.argv[2];
validator
  .validateBytes(new Uint8Array(fs.readFileSync(file)), {
    maxIssues: 100,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
      }),
  })
  .then((r) => {
    const messages = r.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer || ''} ${m.message}`);
    console.log(JSON.stringify({ errors: r.issues.numErrors, warnings: r.issues.numWarnings, messages }));
    process.exit(r.issues.numErrors ? 1 : 0);
  })
  .catch((e) => {
    console.error(String(e));
    process.exit(2);
  });
