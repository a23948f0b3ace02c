import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ResponseSchema } from '../common/openapi/response-schema.js';
import { Doc } from '../common/validation/doc.js';

/** One size of an image, as the contract names it; images are references to URLs and have no sizes yet. */
@ResponseSchema('ImageSize')
export class ImageSizeResponse {
  @Doc('Width in pixels.')
  @ApiProperty({ type: 'integer' })
  width: number;

  @Doc('Height in pixels.')
  @ApiProperty({ type: 'integer' })
  height: number;

  @Doc('Media type of the image.')
  @ApiProperty({ name: 'mime-type', type: 'string' })
  mimeType: string;

  @Doc('URL of the image in this size.')
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;
}

/** A registered image (spec §8.6). The contract's schemas list `ImageSize` with it. */
@ResponseSchema('Image', ImageSizeResponse)
export class ImageResponse {
  @Doc('URL of the image.')
  @ApiProperty({ type: 'string', format: 'uri' })
  url: string;

  @Doc('Image ID.')
  @ApiProperty({ type: 'integer' })
  id: number;

  @Doc('File extension taken from the URL.')
  @ApiProperty({ type: 'string' })
  extension: string;

  @Doc('Sizes of the image by name. Never sent: images are kept as URL references.')
  @ApiPropertyOptional({ type: 'object', additionalProperties: { $ref: getSchemaPath(ImageSizeResponse) } })
  sizes?: Record<string, ImageSizeResponse>;
}

/** The schema of an `image` field: the image, or `false` when there is none (or it is redacted). */
export function imageOrFalse() {
  return { oneOf: [{ $ref: getSchemaPath(ImageResponse) }, { type: 'boolean', enum: [false] }] };
}
