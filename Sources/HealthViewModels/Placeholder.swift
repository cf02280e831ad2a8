// HealthViewModels
