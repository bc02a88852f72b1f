// Workspace settings: small named values (the workspace secret's salt, the tenant's hash…).

export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}
