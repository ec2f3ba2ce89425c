import { FolderOpenOutlined } from '@ant-design/icons';
import { Button, Flex, Input } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface PemFieldProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  /** Names the file input for assistive technology ("Load certificate from file"). */
  fileLabel: string;
}

/**
 * A PEM text area (a form control) with a button that reads a file chosen on this computer into
 * it; the file is read in the browser and goes to the server only as the form's text.
 */
export function PemField({ id, value, onChange, fileLabel }: PemFieldProps) {
  const { t } = useTranslation('certificates');
  const input = useRef<HTMLInputElement>(null);
  return (
    <Flex vertical gap="small">
      <Input.TextArea
        id={id}
        rows={6}
        spellCheck={false}
        style={{ fontFamily: 'monospace' }}
        placeholder="-----BEGIN ..."
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
      />
      <div>
        <Button icon={<FolderOpenOutlined />} onClick={() => input.current?.click()}>
          {t('form.loadFile')}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".pem,.crt,.cer,.key,.txt"
          aria-label={fileLabel}
          hidden
          onChange={async (event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) onChange?.(await file.text());
          }}
        />
      </div>
    </Flex>
  );
}
