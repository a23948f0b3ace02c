import { TermListBaseQueryDto, termPostParam, termSlugParam, type TermListTail } from '../../terms/dto/term-list.query.js';

export class ListTagsQueryDto extends TermListBaseQueryDto implements TermListTail {
  /** Only tags assigned to this event. */
  @termPostParam()
  post?: number;

  /** Same as post; wins when both are sent. */
  @termPostParam()
  event?: number;

  /** Only tags with one of these slugs. */
  @termSlugParam()
  slug?: string[];
}
