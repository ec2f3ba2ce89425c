import {
  LOGO_IMAGE_MAX_BYTES,
  type LogoForm,
  type LogoImageSlot,
  type LogoInfo,
  type OperatorLogo,
  type Tier,
  type ValidationKey,
} from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { isUploadedFile } from '../../platform/http/multipart.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SystemService } from '../system/system.service.js';
import { imageTypeOf } from './image-type.js';
import { imagesOf, isSlot, presentLogo } from './logos.presenter.js';
import type { LogoRow, LogosRepository, LogoTexts } from './logos.repository.js';

const TEXT_FIELDS = ['title', 'subTitle', 'description', 'copyright', 'version'] as const;

interface Image {
  slot: LogoImageSlot;
  mime: string;
  data: Buffer;
}
/** What a form asks for once checked: texts to set, images to store, slots to empty. */
interface Change {
  texts: Partial<LogoTexts>;
  images: Image[];
  reset: LogoImageSlot[];
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/**
 * An operator's branding: one logo set of texts and images (PNG, JPEG, GIF, WebP, ICO, checked by
 * magic bytes, each slot with its own size limit), shown on its customers' login pages.
 */
export class LogosService {
  constructor(
    private readonly repo: LogosRepository,
    private readonly transactions: Transactions,
    private readonly system: SystemService,
  ) {}

  /**
   * Checks the form: every file part must be an image slot, of an accepted type, within the slot's
   * size; `reset` names slots. All faults at once, as 101003 with field names.
   */
  private change(form: LogoForm, parts: Record<string, unknown>): Change {
    const faults: { field: string; key: ValidationKey; params?: Record<string, string | number> }[] = [];
    const images: Image[] = [];
    for (const [field, value] of Object.entries(parts)) {
      const file = isUploadedFile(value);
      if (!isSlot(field)) {
        if (file) faults.push({ field, key: 'invalidValue' });
        continue;
      }
      if (!file) {
        faults.push({ field, key: 'wrongFormat' });
        continue;
      }
      const max = LOGO_IMAGE_MAX_BYTES[field];
      if (value.truncated || value.data.length > max) {
        faults.push({ field, key: 'fileTooLarge', params: { max: sizeText(max) } });
        continue;
      }
      const mime = imageTypeOf(value.data);
      if (!mime) faults.push({ field, key: 'fileType' });
      else images.push({ slot: field, mime, data: value.data });
    }
    const reset: LogoImageSlot[] = [];
    for (const name of (form.reset ?? '').split(',').map((s) => s.trim())) {
      if (name === '') continue;
      if (isSlot(name)) reset.push(name);
      else faults.push({ field: 'reset', key: 'invalidValue' });
    }
    if (faults.length > 0) throw invalidFields(faults);
    const texts: Partial<LogoTexts> = {};
    for (const name of TEXT_FIELDS) {
      const value = form[name];
      if (value !== undefined) texts[name] = value.trim();
    }
    return { texts, images, reset: reset.filter((slot) => !images.some((i) => i.slot === slot)) };
  }

  private async present(row: LogoRow): Promise<OperatorLogo> {
    return presentLogo(row, await this.repo.accountName(row.ownerId), await this.repo.images([row.id]));
  }

  async list(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.repo.list(operatorId, page, pageSize);
    const images = await this.repo.images(rows.map((r) => r.id));
    const operator = await this.repo.accountName(operatorId);
    return { data: rows.map((row) => presentLogo(row, operator, images)), total };
  }

  /** 101025 when the operator has a logo set already (change it with PUT). */
  async create(operatorId: number, form: LogoForm, parts: Record<string, unknown>) {
    const change = this.change(form, parts);
    return this.transactions.run(async () => {
      const row = await this.repo.insert(operatorId, change.texts);
      if (!row) throw new AppError(101025);
      for (const image of change.images) await this.repo.putImage(row.id, image.slot, image.mime, image.data);
      return this.present(row);
    });
  }

  /** Parts sent replace, parts left out stay; 101018 when the operator has no logo set. */
  async update(operatorId: number, form: LogoForm, parts: Record<string, unknown>) {
    const change = this.change(form, parts);
    return this.transactions.run(async () => {
      const row = await this.repo.update(operatorId, change.texts);
      if (!row) throw new AppError(101018);
      await this.repo.removeImages(row.id, change.reset);
      for (const image of change.images) await this.repo.putImage(row.id, image.slot, image.mime, image.data);
      return this.present(row);
    });
  }

  async delete(operatorId: number): Promise<void> {
    if (!(await this.repo.delete(operatorId))) throw new AppError(101018);
  }

  /**
   * What a login page shows (`GET {auth}/logo`, no token). The admin console keeps the
   * installation's branding; the client and user consoles show the named operator's logo set (the
   * first operator's without a name), texts it left empty and an unknown name falling back to the
   * installation's.
   */
  async branding(tier: Tier, operatorName: string | undefined): Promise<LogoInfo> {
    const base = await this.system.branding();
    if (tier === 'admin') return base;
    const operator = await this.repo.operatorNamed(operatorName === '' ? undefined : operatorName);
    const row = operator ? await this.repo.byOwner(operator.id) : undefined;
    if (!row) return base;
    const images = imagesOf(row, await this.repo.images([row.id]));
    const out: LogoInfo = { ...base, ...images };
    for (const name of TEXT_FIELDS) if (row[name] !== '') out[name] = row[name];
    return out;
  }
}
