document.querySelector('.print')?.addEventListener('click', () => window.print());
