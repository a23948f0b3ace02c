import { ApiProperty } from '@nestjs/swagger';

/**
 * The English description of a field in the OpenAPI document and the namespace index. Written out
 * (not taken from comments) so the document is the same whether or not the Swagger compiler plugin ran.
 * `example` is a value the API accepts as sent: Swagger UI's "Try it out" body is built from them.
 */
export function Doc(description: string, options: { example?: unknown } = {}): PropertyDecorator {
  return ApiProperty('example' in options ? { description, example: options.example } : { description });
}
