import { Entity, Index } from 'typeorm';
import { TermEntity } from '../terms/term.entity.js';

@Entity('tags')
@Index('UQ_tags_slug', ['slug'], { unique: true })
export class TagEntity extends TermEntity {}
