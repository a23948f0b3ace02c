import { TermListBaseQueryDto, termPostParam, termSlugParam, type TermListTail } from '../../terms/dto/term-list.query.js';
import { Doc } from '../../common/validation/doc.js';

export class ListTagsQueryDto extends TermListBaseQueryDto implements TermListTail {
  @Doc('Only tags assigned to this event.')
  @termPostParam()
  post?: number;

  @Doc('Same as post; wins when both are sent.')
  @termPostParam()
  event?: number;

  @Doc('Only tags with one of these slugs.')
  @termSlugParam()
  slug?: string[];
}
