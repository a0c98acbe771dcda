import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration from the environment', () => {
  it('has working defaults for a local start', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.DATABASE_URL).toBe('file:./data/signalements.db');
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.TWO_FACTOR_REQUIRED).toBe('admins');
  });

  it('extends two-factor log-in to all staff, and refuses other values in French', () => {
    expect(loadConfig({ TWO_FACTOR_REQUIRED: 'all' }).TWO_FACTOR_REQUIRED).toBe('all');
    expect(() => loadConfig({ TWO_FACTOR_REQUIRED: 'personne' })).toThrow(
      "TWO_FACTOR_REQUIRED: doit valoir 'admins' ou 'all'",
    );
  });

  it('has the alert thresholds of the access log, and refuses values outside their range in French', () => {
    const defaults = loadConfig({});
    expect([
      defaults.ACCESS_ALERT_WINDOW_MINUTES,
      defaults.ACCESS_ALERT_READS,
      defaults.ACCESS_ALERT_EXPORT_MIN_ROWS,
      defaults.ACCESS_ALERT_EXPORT_SHARE,
    ]).toEqual([10, 20, 200, 0.5]);
    const set = loadConfig({
      ACCESS_ALERT_WINDOW_MINUTES: '30',
      ACCESS_ALERT_READS: '5',
      ACCESS_ALERT_EXPORT_SHARE: '0.25',
    });
    expect([set.ACCESS_ALERT_WINDOW_MINUTES, set.ACCESS_ALERT_READS, set.ACCESS_ALERT_EXPORT_SHARE]).toEqual([
      30, 5, 0.25,
    ]);
    const attempt = () =>
      loadConfig({
        ACCESS_ALERT_WINDOW_MINUTES: '0',
        ACCESS_ALERT_READS: 'vingt',
        ACCESS_ALERT_EXPORT_MIN_ROWS: '1.5',
        ACCESS_ALERT_EXPORT_SHARE: '2',
      });
    expect(attempt).toThrow('ACCESS_ALERT_WINDOW_MINUTES: au moins 1');
    expect(attempt).toThrow('ACCESS_ALERT_READS: doit être un nombre');
    expect(attempt).toThrow('ACCESS_ALERT_EXPORT_MIN_ROWS: doit être un entier');
    expect(attempt).toThrow('ACCESS_ALERT_EXPORT_SHARE: au plus 1');
  });

  it('takes a backup recipient and passphrase as given, and refuses a wrong public key or a short passphrase in French', () => {
    const recipient = 'x25519:9-W55_Af1FV2MFc7b_vjbuxRmfFgsFSBFCBY7DSXgyI';
    const set = loadConfig({ BACKUP_RECIPIENT: recipient, BACKUP_PASSPHRASE: '  espaces comptés  ' });
    expect([set.BACKUP_RECIPIENT, set.BACKUP_PASSPHRASE]).toEqual([recipient, '  espaces comptés  ']);
    expect(loadConfig({ BACKUP_RECIPIENT: '', BACKUP_PASSPHRASE: '' }).BACKUP_PASSPHRASE).toBeUndefined();
    const attempt = () => loadConfig({ BACKUP_RECIPIENT: 'age1abcdef', BACKUP_PASSPHRASE: 'court' });
    expect(attempt).toThrow("BACKUP_RECIPIENT: doit être une clé publique 'x25519:…'");
    expect(attempt).toThrow('BACKUP_PASSPHRASE: au moins 12 caractères');
  });

  it('has the daily alert totals and the retention of the access log, and refuses bad values in French', () => {
    const defaults = loadConfig({});
    expect([
      defaults.ACCESS_ALERT_DAILY_READS,
      defaults.ACCESS_ALERT_DAILY_EXPORT_ROWS,
      defaults.ACCESS_LOG_RETENTION_DAYS,
    ]).toEqual([60, 1000, 365]);
    const set = loadConfig({
      ACCESS_ALERT_DAILY_READS: '40',
      ACCESS_ALERT_DAILY_EXPORT_ROWS: '500',
      ACCESS_LOG_RETENTION_DAYS: '90',
    });
    expect([
      set.ACCESS_ALERT_DAILY_READS,
      set.ACCESS_ALERT_DAILY_EXPORT_ROWS,
      set.ACCESS_LOG_RETENTION_DAYS,
    ]).toEqual([40, 500, 90]);
    const attempt = () =>
      loadConfig({
        ACCESS_ALERT_DAILY_READS: '1',
        ACCESS_ALERT_DAILY_EXPORT_ROWS: 'mille',
        ACCESS_LOG_RETENTION_DAYS: '7',
      });
    expect(attempt).toThrow('ACCESS_ALERT_DAILY_READS: au moins 2');
    expect(attempt).toThrow('ACCESS_ALERT_DAILY_EXPORT_ROWS: doit être un nombre');
    expect(attempt).toThrow('ACCESS_LOG_RETENTION_DAYS: au moins 30');
  });

  it('has the hour of the daily reminders (7 by default, 0 to 23) and refuses other values in French', () => {
    expect(loadConfig({}).DIGEST_HOUR).toBe(7);
    expect(loadConfig({ DIGEST_HOUR: '0' }).DIGEST_HOUR).toBe(0);
    expect(loadConfig({ DIGEST_HOUR: '23' }).DIGEST_HOUR).toBe(23);
    expect(() => loadConfig({ DIGEST_HOUR: '24' })).toThrow('DIGEST_HOUR: au plus 23');
    expect(() => loadConfig({ DIGEST_HOUR: '-1' })).toThrow('DIGEST_HOUR: au moins 0');
    expect(() => loadConfig({ DIGEST_HOUR: '7.5' })).toThrow('DIGEST_HOUR: doit être un entier');
    expect(() => loadConfig({ DIGEST_HOUR: 'sept' })).toThrow('DIGEST_HOUR: doit être un nombre');
  });

  it('has the evidence files limits (20 MB per file, 200 MB per report) and refuses bad values in French', () => {
    const defaults = loadConfig({});
    expect([defaults.EVIDENCE_MAX_MB, defaults.EVIDENCE_REPORT_MAX_MB]).toEqual([20, 200]);
    const set = loadConfig({ EVIDENCE_MAX_MB: '5', EVIDENCE_REPORT_MAX_MB: '50' });
    expect([set.EVIDENCE_MAX_MB, set.EVIDENCE_REPORT_MAX_MB]).toEqual([5, 50]);
    const attempt = () => loadConfig({ EVIDENCE_MAX_MB: '0', EVIDENCE_REPORT_MAX_MB: 'beaucoup' });
    expect(attempt).toThrow('EVIDENCE_MAX_MB: au moins 1');
    expect(attempt).toThrow('EVIDENCE_REPORT_MAX_MB: doit être un nombre');
  });

  it('takes TRUST_PROXY as false, a hop count (true is one) or the proxies by address or network, and refuses the rest in French', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ TRUST_PROXY }).TRUST_PROXY;
    expect([trust('false'), trust(''), trust('true'), trust('2')]).toEqual([false, false, 1, 2]);
    expect(trust(' 127.0.0.1, 10.0.0.0/8 ,::1, fd00::/8, loopback ')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const wrong of ['oui', '0', '11', '10.0.0.0/33', '::1/129', '10.0.0.300', '127.0.0.1,', 'nginx']) {
      expect(() => trust(wrong), wrong).toThrow(
        "TRUST_PROXY: doit valoir 'false', le nombre de proxys devant le serveur (1 à 10 ; 'true' vaut 1) ou la liste de leurs adresses ou réseaux séparés par des virgules",
      );
    }
  });

  it('accepts a PostgreSQL URL and treats empty optional values as unset', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', SMTP_URL: '', ADMIN_EMAIL: '' });
    expect(config.DATABASE_URL).toBe('postgres://u@h:5432/db');
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.ADMIN_EMAIL).toBeUndefined();
  });

  it('refuses wrong values with one clear French message per variable', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'quarante',
        DATABASE_URL: 'mysql://x',
        ADMIN_EMAIL: 'pas-un-email',
        ADMIN_PASSWORD: 'court',
        PUBLIC_URL: 'ailleurs',
        SMTP_URL: 'http://mail',
        LOG_LEVEL: 'bavard',
      });
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^Configuration invalide/);
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
      'PUBLIC_URL',
      'SMTP_URL',
      'LOG_LEVEL',
    ]) {
      expect(message).toContain(`- ${name}:`);
    }
    expect(message).toContain("doit commencer par 'file:' (SQLite) ou 'postgres://' (PostgreSQL)");
  });
});
