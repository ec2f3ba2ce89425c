// The installation's settings repository lives below every module, in platform/settings/. The
// analytics and alerts modules still import it from here, until their own clean-up moves the import.
export { SettingsRepository } from '../../platform/settings/settings.repository.js';
