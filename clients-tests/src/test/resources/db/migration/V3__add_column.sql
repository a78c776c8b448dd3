ALTER TABLE book ADD COLUMN pages INT;
UPDATE book SET pages = 387 WHERE title = 'The Dispossessed';
