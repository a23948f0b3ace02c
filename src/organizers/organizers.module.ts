import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizerEntity } from './organizer.entity.js';
import { OrganizersController } from './organizers.controller.js';
import { OrganizersService } from './organizers.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrganizerEntity])],
  controllers: [OrganizersController],
  providers: [OrganizersService],
  exports: [OrganizersService],
})
export class OrganizersModule {}
