import { Injectable } from '@nestjs/common';
import { TermDeps } from '../terms/term-deps.js';
import { TermsService } from '../terms/terms.service.js';
import { TagEntity } from './tag.entity.js';

@Injectable()
export class TagsService extends TermsService {
  constructor(deps: TermDeps) {
    super(
      {
        taxonomy: 'tag',
        resource: 'tags',
        wireTaxonomy: 'post_tag',
        hierarchical: false,
        entity: TagEntity,
        joinTable: 'event_tags',
        joinColumn: 'tag_id',
        unknownKey: 'unknown_tag',
        pageUrl: (publicUrl, slugs) => `${publicUrl}/tag/${slugs.at(-1)}/`,
      },
      deps,
    );
  }
}
