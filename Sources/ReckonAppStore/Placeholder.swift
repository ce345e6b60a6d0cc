// ReckonAppStore
