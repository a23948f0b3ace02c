import { ApiProperty } from '@nestjs/swagger';

/**
 * The English description of a field in the OpenAPI document and the namespace index. Written out
 * (not taken from comments) so the document is the same whether or not the Swagger compiler plugin ran.
 */
export function Doc(description: string): PropertyDecorator {
  return ApiProperty({ description });
}
