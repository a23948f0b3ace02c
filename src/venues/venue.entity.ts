import { Column, Entity, Index } from 'typeorm';
import { booleanTransformer } from '../common/sql/columns.js';
import { PublishableEntity } from '../items/publishable.entity.js';

@Entity('venues')
@Index('UQ_venues_slug', ['slug'], { unique: true })
@Index('IDX_venues_listing', ['status', 'dateUtc'])
export class VenueEntity extends PublishableEntity {
  @Column({ type: 'varchar', length: 1000 })
  name: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  address: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  city: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  country: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  province: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  state: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  zip: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  phone: string;

  /** Stored combined value; empty means "derive from state/province" on output. */
  @Column({ type: 'varchar', length: 255, default: '' })
  stateprovince: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  website: string;

  @Column({ name: 'show_map', type: 'boolean', transformer: booleanTransformer })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', transformer: booleanTransformer })
  showMapLink: boolean;

  @Column({ name: 'geo_lat', type: 'double', nullable: true })
  geoLat: number | null;

  @Column({ name: 'geo_lng', type: 'double', nullable: true })
  geoLng: number | null;
}
