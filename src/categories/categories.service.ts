import { Injectable } from '@nestjs/common';
import { TermDeps } from '../terms/term-deps.js';
import { TermsService } from '../terms/terms.service.js';
import { CategoryEntity } from './category.entity.js';

@Injectable()
export class CategoriesService extends TermsService {
  constructor(deps: TermDeps) {
    super(
      {
        taxonomy: 'category',
        resource: 'categories',
        wireTaxonomy: 'tribe_events_cat',
        hierarchical: true,
        entity: CategoryEntity,
        joinTable: 'event_categories',
        joinColumn: 'category_id',
        unknownKey: 'unknown_category',
        pageUrl: (publicUrl, slugs) => `${publicUrl}/events/category/${slugs.join('/')}/`,
      },
      deps,
    );
  }
}
