// The Swagger compiler plugin of nest-cli.json, applied by ts-jest too: the tests see the OpenAPI
// document the built service serves (summaries from doc comments, DTO metadata), not a different one.
const plugin = require('@nestjs/swagger/plugin');
const nestCli = require('../../nest-cli.json');

const options = nestCli.compilerOptions.plugins.find((entry) => entry.name === '@nestjs/swagger').options;

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (compilerInstance) => plugin.before(options, compilerInstance.program);
